import { because, expect, req, test } from '../../harness/areas/direct-debit.js';

// X-Consent-Type (Common request headers), shown through the direct debit flow of section H.

test(
  'create consent with X-Consent-Type sepaDirectDebit gives a consent that confirm accepts, and the same consent without the header does not',
  req('headers.x-consent-type.direct-debit'),
  async ({ directDebit }) => {
    const { paymentId } = await directDebit.createPayment();
    // The header is what makes a direct debit consent: the same access, validUntil, headers, scope and
    // SCA without it (one-off: see authorisedConsent) make a consent confirm refuses; a bank that takes
    // any authorised consent of the corporate context passes over the header.
    const plain = await directDebit.authorisedConsent({ withoutType: true });
    const without = await directDebit.confirm([paymentId], plain);
    await expect(
      without,
      because(
        `confirm with consent ${plain}, created with the direct debit consent's access but without X-Consent-Type, is refused`,
      ),
    ).toBeRefused();
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
