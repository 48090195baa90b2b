import { defineConfig } from '@playwright/test';

// One id per self-test run (set here, in the runner, before workers start): the fault matrix
// runs once per id even when a worker restarts after a failed fault.
process.env.SELFTEST_RUN_ID ||= `${Date.now()}-${process.pid}`;

/** The suite's own tests (`npm test`): unit tests, the green run, the fault matrix, hostile targets. */
export default defineConfig({
  testDir: '.',
  // The runs' own files (the fault matrix writes wrapper specs there) are not self-tests.
  testIgnore: ['**/.runs/**'],
  outputDir: `.runs/r/${process.env.SELFTEST_RUN_ID}/test-results`,
  fullyParallel: true,
  workers: Number(process.env.SELFTEST_WORKERS || 3),
  retries: 0,
  timeout: 300_000,
  reporter: [['list'], ['json', { outputFile: `.runs/r/${process.env.SELFTEST_RUN_ID}/selftest-results.json` }]],
  // Longest first, so that the fault matrix and the green run start at once and the rest fills in beside them.
  projects: [
    { name: 'faults', testMatch: 'matrix/**/*.spec.ts' },
    { name: 'green', testMatch: 'green.spec.ts' },
    { name: 'hostile', testMatch: 'hostile/**/*.spec.ts' },
    { name: 'unit', testMatch: 'unit/**/*.spec.ts', timeout: 30_000 },
  ],
});
