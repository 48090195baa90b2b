import { test as base, type PlaywrightWorkerArgs } from '@playwright/test';
import { BROWSERLESS } from '../../../harness/playwright-internals/browserless.js';

// The same test with Playwright's automatic browser fixtures and with them replaced. What only
// those fixtures do is observed: `_setupArtifacts` makes every Playwright API call a step
// (`pw:api`), and `_setupContextOptions` hands the action timeout to every context.
base.use({ actionTimeout: 4321 });

const body = async ({ playwright }: PlaywrightWorkerArgs) => {
  const timeout = (playwright as { _defaultContextTimeout?: number })._defaultContextTimeout;
  base.info().annotations.push({ type: 'context-timeout', description: String(timeout) });
  await (await playwright.request.newContext()).dispose();
};
base('with the browser fixtures', body);
base.extend(BROWSERLESS)('browserless', body);
