import type { TestInfo } from '@playwright/test';
import { boxed } from '../test.js';
import { PaymentsClient, test as base } from '../areas/payments.js';
import { GENERATED_OFF, generatedDepth, type Depth } from './settings.js';

export { because, expect, req } from '../test.js';

export interface GeneratedFixtures {
  /** The generated phase's depth; a test is skipped before its body when the phase is off. */
  depth: Depth;
}

/** The generated phase's depth: the test is skipped before its body when the phase is off. */
export const depthFixture = boxed(async ({}, use: (depth: Depth) => Promise<void>, testInfo: TestInfo) => {
  const depth = generatedDepth();
  testInfo.skip(!depth, GENERATED_OFF);
  // Generating and shrinking are bounded by the depth's time limit each; the cleanup after them.
  testInfo.setTimeout(Math.max(testInfo.timeout, 2 * depth!.timeLimitMs + 60_000));
  await use(depth!);
});

/** The payments' fixtures with the generated phase's depth; the test's time bound follows the depth's. */
export const test = base.extend<GeneratedFixtures>({
  // The payment client with a 5xx an answer to judge ("no request ever gets a 5xx"), not a broken
  // target; what it creates is cleaned up by the payments fixture it wraps.
  payments: [
    async ({ payments }, use) => {
      await use(
        new PaymentsClient(
          payments.api.with({ allow5xx: true }),
          payments.created,
          payments.context,
          payments.psuTokens,
        ),
      );
    },
    { scope: 'test', box: 'self' },
  ],
  depth: depthFixture,
});
