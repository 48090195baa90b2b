import { defineConfig } from '@playwright/test';
import { fromRoot } from '../../harness/config/paths.js';
import { loadProfile } from '../../harness/config/profile.js';
import { ENV } from '../../harness/config/env-names.mjs';

/**
 * The suite's own tests, declared once per case of the plan (harness/proof.ts), in ONE project:
 * any worker runs any case's tests, so workers start once per slot. The front behind
 * TARGET_BASE_URL picks each case's sandbox by the header the declaration sends.
 */
const profile = loadProfile(process.env.TARGET_PROFILE || 'reference');

export default defineConfig({
  testDir: fromRoot('tests'),
  outputDir: `${process.env.REPORTS_DIR}/test-results`,
  fullyParallel: true,
  retries: 0,
  workers: Number(process.env[ENV.workers] || 10),
  // As the suite's own config: a test may spend four request timeouts and one SCA.
  timeout: Math.max(60_000, profile.timeouts.requestMs * 4 + profile.timeouts.scaMs),
  expect: { timeout: profile.timeouts.scaMs },
  reporter: [
    // First, as in the suite's own config: a failure whose worker was kept is a failure again.
    [fromRoot('harness', 'reporter', 'outcome.ts')],
    ['dot'],
    [fromRoot('selftest', 'proof', 'reporter.ts')],
  ],
  use: { trace: 'off' },
});
