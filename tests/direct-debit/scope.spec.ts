import { because, expect, req, test } from '../../harness/areas/direct-debit.js';

// Everything else as a valid call (section H headers included): only the context scope differs.
const PRIVATE = 'paymentinitiation private';

test(
  'create with a paymentinitiation private token is refused',
  req('direct-debit.auth.scope-corporate'),
  async ({ directDebit }) => {
    await expect(
      await directDebit.create(directDebit.body(), { scope: PRIVATE }),
      because('create with a paymentinitiation private token'),
    ).toBeRefused();
  },
);

test(
  'confirm with a paymentinitiation private token is refused',
  req('direct-debit.auth.scope-corporate'),
  async ({ directDebit }) => {
    const { paymentId } = await directDebit.createPayment();
    const consentId = await directDebit.authorisedConsent();
    await expect(
      await directDebit.confirm([paymentId], consentId, { scope: PRIVATE }),
      because('confirm with a paymentinitiation private token'),
    ).toBeRefused();
  },
);

test(
  'get payment with a paymentinitiation private token is refused',
  req('direct-debit.auth.scope-corporate'),
  async ({ directDebit }) => {
    const { paymentId } = await directDebit.createPayment();
    await expect(
      await directDebit.get(paymentId, { scope: PRIVATE }),
      because('get payment with a paymentinitiation private token'),
    ).toBeRefused();
  },
);

// The exact codes: Berlin Group's 401 (token) or 403, with a tppMessages body.
test(
  'create, confirm and get with a paymentinitiation private token are answered 401 or 403 with tppMessages',
  req('direct-debit.auth.scope-corporate-code'),
  async ({ directDebit }) => {
    const { paymentId } = await directDebit.createPayment();
    const consentId = await directDebit.authorisedConsent();
    for (const [what, res] of [
      ['create', await directDebit.create(directDebit.body(), { scope: PRIVATE })],
      ['confirm', await directDebit.confirm([paymentId], consentId, { scope: PRIVATE })],
      ['get', await directDebit.get(paymentId, { scope: PRIVATE })],
    ] as const)
      await expect.soft(res, because(`${what} with a paymentinitiation private token`)).toBeTppError([401, 403]);
  },
);
