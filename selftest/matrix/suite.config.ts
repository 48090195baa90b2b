import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig, type Project } from '@playwright/test';
import { fromRoot } from '../../fixtures/config/paths.js';
import { PLAN_ENV, SEP, SETUP, type MatrixPlan } from './plan.js';

/**
 * The fault matrix as ONE Playwright run: for every fault, a setup project that points the
 * workers at that fault's sandbox (the env a setup project sets reaches the projects that
 * depend on it), and one project per area the fault names. One runner for all faults, and
 * the areas of different faults run side by side in the same pool of workers.
 */
const plan = JSON.parse(readFileSync(process.env[PLAN_ENV]!, 'utf8')) as MatrixPlan;

const projects: Project[] = plan.faults.flatMap((f) => [
  { name: `${f.id}${SEP}${SETUP}`, testDir: fromRoot('selftest', 'matrix'), testMatch: 'target.setup.ts', metadata: { fault: f.id } },
  ...f.projects.map((area) => ({
    name: `${f.id}${SEP}${area}`,
    testDir: fromRoot('tests', area),
    dependencies: [`${f.id}${SEP}${SETUP}`],
    workers: plan.workersPerArea,
    metadata: { fault: f.id, area },
  })),
]);

export default defineConfig({
  testDir: fromRoot('tests'),
  outputDir: join(plan.outDir, 'test-results'),
  fullyParallel: true,
  retries: 0,
  workers: plan.workers,
  timeout: plan.timeouts.testMs,
  expect: { timeout: plan.timeouts.expectMs },
  reporter: [['dot'], [fromRoot('selftest', 'matrix', 'reporter.ts')]],
  use: { trace: 'off' },
  projects,
});
