import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig, type Project } from '@playwright/test';
import { fromRoot } from '../../fixtures/config/paths.js';
import { FAULT_HEADER, PLAN_ENV, SEP, type MatrixPlan } from './plan.js';

/**
 * The fault matrix as ONE Playwright run: one project per fault and area, each sending the
 * fault's name in a header (extraHTTPHeaders) to the port where every fault's sandbox sits
 * (selftest/support/run-matrix.ts). One runner for all faults, and the areas of different
 * faults run side by side in the same pool of workers.
 */
const plan = JSON.parse(readFileSync(process.env[PLAN_ENV]!, 'utf8')) as MatrixPlan;

const inArea = (files: string[], area: string) => files.filter((f) => f.startsWith(`${area}/`)).map((f) => fromRoot('tests', f));

const projects: Project<{ expectFailing: string[] }>[] = plan.faults.flatMap((f) =>
  f.projects.filter((area) => !f.files || inArea(f.files, area).length).map((area) => ({
    name: `${f.id}${SEP}${area}`,
    testDir: fromRoot('tests', area),
    ...(f.files ? { testMatch: inArea(f.files, area) } : {}),
    ...(f.leaveOut ? { grepInvert: new RegExp(f.leaveOut) } : {}),
    workers: f.workers,
    // The checks of what the fault breaks are expected to fail: such a failure keeps the worker.
    use: { extraHTTPHeaders: { [FAULT_HEADER]: f.id }, expectFailing: f.breaks },
    metadata: { fault: f.id, area },
  })),
);

export default defineConfig<{ expectFailing: string[] }>({
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
