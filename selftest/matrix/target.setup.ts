import { test } from '@playwright/test';
import { PLAN_ENV, type MatrixPlan } from './plan.js';
import { readFileSync } from 'node:fs';

// The environment this sets reaches every worker of the projects that depend on this one.
test('point the workers at the fault sandbox', () => {
  const plan = JSON.parse(readFileSync(process.env[PLAN_ENV]!, 'utf8')) as MatrixPlan;
  const fault = plan.faults.find((f) => f.id === test.info().project.metadata.fault)!;
  process.env.TARGET_BASE_URL = fault.baseUrl;
  process.env.TARGET_AUTH_URL = fault.baseUrl;
  process.env.CLIENT_ID = fault.clientId;
  process.env.CLIENT_SECRET = fault.clientSecret;
});
