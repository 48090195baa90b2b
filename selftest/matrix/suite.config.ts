import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { fromRoot } from '../../harness/config/paths.js';
import { PLAN_ENV, type MatrixPlan } from './plan.js';

/**
 * The fault matrix as ONE Playwright run with ONE project. Each fault has a folder of wrapper
 * spec files (selftest/support/run-matrix.ts writes them): a wrapper sets the fault's header
 * and the checks expected to fail (`test.use`, both test-scoped options), then imports the
 * suite's own spec file under a URL of its own, so the same tests are declared once per fault.
 * Every worker can run every fault's tests: a worker starts once per slot, not once per fault.
 */
const plan = JSON.parse(readFileSync(process.env[PLAN_ENV]!, 'utf8')) as MatrixPlan;

const leaveOut = plan.faults.filter((f) => f.leaveOut).map((f) => new RegExp(f.leaveOut!));

export default defineConfig({
  testDir: plan.specsDir,
  outputDir: join(plan.outDir, 'test-results'),
  fullyParallel: true,
  retries: 0,
  workers: plan.workers,
  timeout: plan.timeouts.testMs,
  expect: { timeout: plan.timeouts.expectMs },
  reporter: [['dot'], [fromRoot('selftest', 'matrix', 'reporter.ts')]],
  use: { trace: 'off' },
  // Playwright greps the file's path, the titles and the tags: each fault's pattern names its folder.
  ...(leaveOut.length ? { grepInvert: leaveOut } : {}),
  projects: [{ name: 'matrix' }],
});
