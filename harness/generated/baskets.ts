import { requireSuccess } from '../http/broken.js';
import type { ApiResponse } from '../http/response.js';
import { schemaRegistry } from '../values/schemas.js';
import { BasketsClient, test as base } from '../areas/signing-baskets.js';
import { brokenBasketBody, type BasketCase, type BrokenBasket } from './basket-cases.js';
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

const basketIdOf = (body: unknown) => (body as { basketId?: unknown } | undefined)?.basketId;

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
  const what = `create a basket of ${v.payments} new payment(s)`;
  if (res.status >= 500) throw new Error(`${what}: expected no server error; got ${res.describe()}`);
  const id = res.status >= 200 && res.status < 300 ? basketIdOf(res.body) : undefined;
  if (typeof id !== 'string' || !id) throw new Error(`${what}: expected a 2xx with a basketId; got ${res.describe()}`);
  const problems = schemaRegistry().check('signing-baskets/basket-created', res.body);
  if (problems.length)
    throw new Error(
      `${what}: the answer does not match signing-baskets/basket-created: ${problems[0].path}: ${problems[0].message}`,
    );
};

/**
 * A valid case read back (signing-baskets.read.response): reading the basket answers its paymentIds
 * as created (in any order). A refused create blocks it, naming signing-baskets.create.response.
 */
export const basketReadsBack = (baskets: BasketsClient) => async (v: BasketCase) => {
  const paymentIds = await knownIds(baskets, v.payments);
  const what = `create a basket of ${v.payments} new payment(s)`;
  const res = await baskets.create(paymentIds);
  if (res.status >= 500) throw new Error(`${what}: expected no server error; got ${res.describe()}`);
  requireSuccess(res, 'signing-baskets.create.response', what);
  const read = await baskets.read(String(basketIdOf(res.body)));
  if (read.status >= 500) throw new Error(`${what}, read back: expected no server error; got ${read.describe()}`);
  if (read.status < 200 || read.status >= 300) throw new Error(`${what}: read basket refused: ${read.describe()}`);
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
  let controlled = false;
  return async (b: BrokenBasket) => {
    if (!controlled) {
      const control = await baskets.create(await knownIds(baskets, 1));
      requireSuccess(control, 'signing-baskets.create.response', 'create a basket of one new payment (the control)');
      controlled = true;
    }
    const body = brokenBasketBody(b, await knownIds(baskets, b.payments));
    const res = await post(baskets, body);
    const what = `create basket ${JSON.stringify(body)} (${b.broken}${b.at === undefined ? '' : ` at paymentIds[${b.at}]`})`;
    if (res.status >= 500) throw new Error(`${what}: expected no server error; got ${res.describe()}`);
    const refused = status === undefined ? res.status >= 400 && res.status < 500 : res.status === status;
    if (!refused || basketIdOf(res.body) !== undefined)
      throw new Error(
        `${what}: expected a refusal (HTTP ${status ?? '4xx'} carrying no basketId); got ${res.describe()}`,
      );
  };
}
