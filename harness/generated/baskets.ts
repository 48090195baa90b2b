import { BasketsClient, test as base } from '../areas/signing-baskets.js';
import { depthFixture, type GeneratedFixtures } from './test.js';

export { because, expect, req } from '../test.js';

/** The signing baskets' fixtures with the generated phase's depth; a 5xx is an answer to judge. */
export const test = base.extend<GeneratedFixtures>({
  baskets: [
    async ({ baskets }, use) => {
      await use(new BasketsClient(baskets.api.with({ allow5xx: true }), baskets.payments, baskets.created));
    },
    { scope: 'test', box: 'self' },
  ],
  depth: depthFixture,
});
