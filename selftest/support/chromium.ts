import { existsSync } from 'node:fs';
import { chromium, type Browser } from '@playwright/test';
import { test as base } from './test.js';

/** The system's Chromium (Debian's package): no browser is downloaded. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Playwright's test with `systemChromium`: the system's Chromium, launched once per worker for
 * every self-test that opens a report in it (a launch costs one to three seconds of CPU, and the
 * tests of several files share the green project's worker), or undefined where it is not installed.
 */
export const test = base.extend<object, { systemChromium: Browser | undefined }>({
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
