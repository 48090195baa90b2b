import { test as base, chromium, type Browser } from '@playwright/test';
import { BROWSERLESS } from '../../harness/playwright-internals/browserless.js';
import { findChromium } from '../../harness/config/chromium.js';

/**
 * Why a self-test that opens a page has no browser: CHROMIUM_PATH, Debian's chromium and the
 * npm package's build (harness/config/chromium.ts, the browser agent's lookup) all missing.
 * Undefined when there is one.
 */
export function noChromium(): string | undefined {
  try {
    findChromium(process.env.CHROMIUM_PATH);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * Playwright's test for the self-tests, without its two automatic browser fixtures
 * (harness/playwright-internals/browserless.ts), as the suite's own: a self-test opens no page through them, and they
 * cost every test some thirty option fixtures, each a step with captured stack traces (over 600
 * self-tests, the unit tests' worker alone spent over a second on them).
 *
 * With `chromiumBrowser`: the browser agent's Chromium (CHROMIUM_PATH, Debian's chromium or the
 * npm package's build: harness/config/chromium.ts), launched once per worker, on first use, for
 * every self-test that opens a report in it (a launch costs one to three seconds of CPU), or
 * undefined where there is none (`noChromium()` says why). Every self-test file takes this one
 * test: a worker serves only files whose worker fixtures are the same, so a second test type in a
 * project would start a second worker for its files.
 */
export const test = base.extend(BROWSERLESS).extend<object, { chromiumBrowser: Browser | undefined }>({
  chromiumBrowser: [
    async ({}, use) => {
      if (noChromium()) return use(undefined);
      const found = findChromium(process.env.CHROMIUM_PATH);
      const browser = await chromium.launch({ ...(await found.launchOptions()), headless: true });
      try {
        await use(browser);
      } finally {
        await browser.close();
      }
    },
    { scope: 'worker' },
  ],
});
