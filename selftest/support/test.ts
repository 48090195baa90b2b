import { existsSync } from 'node:fs';
import { test as base, chromium, type Browser } from '@playwright/test';
import { BROWSERLESS } from '../../harness/browserless.js';

/** The system's Chromium (Debian's package): no browser is downloaded. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Playwright's test for the self-tests, without its two automatic browser fixtures
 * (harness/browserless.ts), as the suite's own: a self-test opens no page through them, and they
 * cost every test some thirty option fixtures, each a step with captured stack traces (over 600
 * self-tests, the unit tests' worker alone spent over a second on them).
 *
 * With `systemChromium`: the system's Chromium, launched once per worker, on first use, for every
 * self-test that opens a report in it (a launch costs one to three seconds of CPU), or undefined
 * where it is not installed. Every self-test file takes this one test: a worker serves only files
 * whose worker fixtures are the same, so a second test type in a project would start a second
 * worker for its files.
 */
export const test = base.extend(BROWSERLESS).extend<object, { systemChromium: Browser | undefined }>({
  systemChromium: [
    async ({}, use) => {
      if (!existsSync(CHROMIUM)) return use(undefined);
      const browser = await chromium.launch({ executablePath: CHROMIUM });
      try {
        await use(browser);
      } finally {
        await browser.close();
      }
    },
    { scope: 'worker' },
  ],
});
