import { because, expect, req, test } from '../../harness/areas/direct-debit.js';

// X-Consent-Type (Common request headers), shown through the direct debit flow of section H.

test(
  'create consent with X-Consent-Type sepaDirectDebit gives a consent that confirm accepts',
  req('headers.x-consent-type.direct-debit'),
  async ({ directDebit }) => {
    const { paymentId } = await directDebit.createPayment();
    const consentId = await directDebit.authorisedConsent();
    const res = await directDebit.confirm([paymentId], consentId);
    expect(
      res,
      because(
        `confirm with the consent created with X-Consent-Type sepaDirectDebit is accepted; got ${res.describe()}`,
      ),
    ).toSucceed();
  },
);
