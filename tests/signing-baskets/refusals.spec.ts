import { randomUUID } from 'node:crypto';
import { because, expect, req, test } from '../../harness/areas/signing-baskets.js';

test(
  'another TPP can neither read, delete nor authorise a signing basket',
  req('signing-baskets.ownership.other-tpp'),
  async ({ baskets, secondTpp, basketPayment: _ }) => {
    const other = secondTpp(baskets.api);
    const { basketId, basePath } = await baskets.createdBasket(1);
    const headers = baskets.payments.psuHeaders();
    for (const [what, res] of [
      ['read', await other.get(basePath, { headers })],
      ['status', await other.get(`${basePath}/status`, { headers })],
      ['create authorisation', await other.post(`${basePath}/authorisations`, { headers })],
      ['delete', await other.delete(basePath, { headers })],
    ] as const) {
      await expect(res, because(`another TPP's ${what} of the signing basket`)).toBeRefused();
    }
    const own = await baskets.read(basketId);
    await expect(own, because("the basket after another TPP's calls on it: still there")).toSucceed();
  },
);

test(
  'read, status and delete of an unknown basketId are refused',
  req('signing-baskets.unknown.refused'),
  async ({ baskets }) => {
    const unknown = randomUUID();
    for (const [what, res] of [
      ['read', await baskets.read(unknown)],
      ['status', await baskets.status(unknown)],
      ['delete', await baskets.delete(unknown)],
    ] as const) {
      await expect(res, because(`${what} of the unknown basket ${unknown}`)).toBeRefused();
      expect(
        ['basketId', 'paymentIds', 'transactionStatus'].filter((k) => k in ((res.body as object | undefined) ?? {})),
        because(`${what} of an unknown basket shows no basket data`),
      ).toEqual([]);
    }
  },
);
