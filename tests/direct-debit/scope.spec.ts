import { expect, req, test } from '../../fixtures/areas/direct-debit.js';

const PRIVATE = 'paymentinitiation private';
// In a private context PSU-Corporate-ID has no place (Common request headers).
const privateHeaders = { 'PSU-Corporate-ID': null };

test('create with a paymentinitiation private token is refused', req('direct-debit.auth.scope-corporate'), async ({ directDebit }) => {
  await expect(await directDebit.create(directDebit.body(), { scope: PRIVATE, headers: privateHeaders })).toBeTppError([401, 403]);
});

test('confirm with a paymentinitiation private token is refused', req('direct-debit.auth.scope-corporate'), async ({ directDebit }) => {
  const { paymentId } = await directDebit.createPayment();
  const consentId = await directDebit.authorisedConsent();
  await expect(await directDebit.confirm([paymentId], consentId, { scope: PRIVATE, headers: privateHeaders })).toBeTppError([401, 403]);
});

test('get payment with a paymentinitiation private token is refused', req('direct-debit.auth.scope-corporate'), async ({ directDebit }) => {
  const { paymentId } = await directDebit.createPayment();
  await expect(await directDebit.get(paymentId, { scope: PRIVATE, headers: privateHeaders })).toBeTppError([401, 403]);
});
