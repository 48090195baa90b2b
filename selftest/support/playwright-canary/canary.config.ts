import { defineConfig } from '@playwright/test';
import { fromRoot } from '../../../harness/config/paths.js';

/**
 * The canary run of Playwright's internals the harness relies on (harness/playwright-internals/,
 * docs/playwright-internals.md): a few tiny tests, run by selftest/unit/playwright-internals.spec.ts,
 * whose results its canary tests read. Two workers; the run's first reporter is the suite's own
 * (a failure whose worker was kept is a failure again), the second records every result.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '*.canary.ts',
  outputDir: `${process.env.CANARY_DIR}/test-results`,
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  reporter: [
    [fromRoot('harness', 'reporter', 'outcome.ts')],
    [fromRoot('selftest', 'support', 'playwright-canary', 'recorder.ts')],
  ],
});
