import type { TestInfo } from '@playwright/test';

/**
 * Playwright's two automatic browser fixtures ("trace recording", "context configuration"),
 * replaced for tests that open no page through Playwright's own browser fixtures (the suite's
 * browser agent and the self-tests launch their Chromium themselves). As Playwright declares them,
 * each test paid for them with some thirty option fixtures, each a step with two captured stack
 * traces. Kept as they matter here: the test's timeout reset, nothing else. Private: both names
 * (`_`-prefixed) and `auto: 'all-hooks-included'` are Playwright's own (playwright/lib/index.js);
 * a release that renames them brings the thirty steps back silently, so a canary counts them
 * (selftest/unit/playwright-internals.spec.ts; docs/playwright-internals.md).
 */
export const BROWSERLESS = {
  _setupArtifacts: [
    async ({}, use: () => Promise<void>, testInfo: TestInfo) => {
      testInfo.setTimeout(testInfo.project.timeout);
      await use();
    },
    { auto: 'all-hooks-included', box: 'self', timeout: 0 },
  ],
  _setupContextOptions: [async ({}, use: () => Promise<void>) => use(), { auto: 'all-hooks-included', box: 'self' }],
} as object;
