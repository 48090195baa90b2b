import type { ApiResponse } from '../http/response.js';
import { BasketsClient, test as base } from '../areas/signing-baskets.js';
import { brokenBasketBody, type BasketCase, type BrokenBasket } from './signing-baskets-cases.js';
import { acceptedWith, controlsOnce, createdAndRead, idIn, refusedWithout } from './judge.js';
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

/** POST the create-basket body as it is (with or without paymentIds); a basket created is deleted when the test ends. */
async function post(baskets: BasketsClient, body: Record<string, unknown>): Promise<ApiResponse> {
  if ('paymentIds' in body) return baskets.create(body.paymentIds);
  return baskets.api.post(baskets.path, { json: body, headers: baskets.payments.psuHeaders() });
}

/** New payments of this TPP, not authorised, to put in a basket (a refused initiation blocks the case). */
async function knownIds(baskets: BasketsClient, count: number): Promise<string[]> {
  return count ? (await baskets.paymentsToSign(count)).map((p) => p.paymentId) : [];
}

/** A valid case judged: a 2xx with a basketId whose answer matches signing-baskets/basket-created; never a 5xx. */
export const basketAccepted = (baskets: BasketsClient) => async (v: BasketCase) => {
  const paymentIds = await knownIds(baskets, v.payments);
  const res = await baskets.create(paymentIds);
  acceptedWith(res, `create a basket of ${v.payments} new payment(s)`, 'basketId', 'signing-baskets/basket-created');
};

/**
 * A valid case read back (signing-baskets.read.response): reading the basket answers its paymentIds
 * as created (in any order). A refused create blocks it, naming signing-baskets.create.response.
 */
export const basketReadsBack = (baskets: BasketsClient) => async (v: BasketCase) => {
  const paymentIds = await knownIds(baskets, v.payments);
  const what = `create a basket of ${v.payments} new payment(s)`;
  const read = await createdAndRead(
    what,
    'signing-baskets.create.response',
    () => baskets.create(paymentIds),
    (res) => baskets.read(String(idIn(res, 'basketId'))),
  );
  const got = (read.body as { paymentIds?: unknown } | undefined)?.paymentIds;
  const asRead = Array.isArray(got) ? got.map(String).sort() : got;
  if (JSON.stringify(asRead) !== JSON.stringify([...paymentIds].sort()))
    throw new Error(
      `${what}: read basket answers paymentIds ${JSON.stringify(got)}; created with ${JSON.stringify(paymentIds)}`,
    );
};

/**
 * A broken case judged: a 4xx carrying no basketId (`status` where the requirement names the exact
 * code), beside its control (a valid basket of new payments, accepted once in the same test).
 */
export function basketRefused(baskets: BasketsClient, status?: number) {
  const control = controlsOnce();
  return async (b: BrokenBasket) => {
    await control('basket', async () => baskets.create(await knownIds(baskets, 1)));
    const body = brokenBasketBody(b, await knownIds(baskets, b.payments));
    const res = await post(baskets, body);
    const what = `create basket ${JSON.stringify(body)} (${b.broken}${b.at === undefined ? '' : ` at paymentIds[${b.at}]`})`;
    refusedWithout(res, what, 'basketId', status);
  };
}
