import { expect, req, test } from '../../harness/areas/direct-debit.js';

// Everything else as a valid call (section H headers included): only the context scope differs.
const PRIVATE = 'paymentinitiation private';

test(
  'create with a paymentinitiation private token is refused',
  req('direct-debit.auth.scope-corporate'),
  async ({ directDebit }) => {
    await expect(await directDebit.create(directDebit.body(), { scope: PRIVATE })).toBeTppError([401, 403]);
  },
);

test(
  'confirm with a paymentinitiation private token is refused',
  req('direct-debit.auth.scope-corporate'),
  async ({ directDebit }) => {
    const { paymentId } = await directDebit.createPayment();
    const consentId = await directDebit.authorisedConsent();
    await expect(await directDebit.confirm([paymentId], consentId, { scope: PRIVATE })).toBeTppError([401, 403]);
  },
);

test(
  'get payment with a paymentinitiation private token is refused',
  req('direct-debit.auth.scope-corporate'),
  async ({ directDebit }) => {
    const { paymentId } = await directDebit.createPayment();
    await expect(await directDebit.get(paymentId, { scope: PRIVATE })).toBeTppError([401, 403]);
  },
);
