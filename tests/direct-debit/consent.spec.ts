import { isUuid } from '../../spec/header-forms.js';
import { requireSuccess } from '../../harness/http/broken.js';
import { because, expect, req, test } from '../../harness/areas/direct-debit.js';

// The direct debit consent: its id is the uuid confirm sends as Consent-ID (H 2), and it is
// long-lived (Resources > Consent): a confirm does not use it up.

test(
  'create consent with X-Consent-Type sepaDirectDebit answers a consentId that is a uuid',
  req('direct-debit.consent.id-uuid'),
  async ({ directDebit }) => {
    const res = await directDebit.createConsent();
    await expect(res).toSucceed();
    const consentId = res.json<{ consentId?: unknown }>().consentId;
    expect(
      isUuid(consentId),
      because(
        `$.consentId of a direct debit consent is a uuid (8-4-4-4-12 hex digits); got ${JSON.stringify(consentId)}`,
      ),
    ).toBe(true);
  },
);

test(
  'an authorised direct debit consent stays valid after a confirm and serves a second one',
  req('direct-debit.consent.long-lived'),
  async ({ directDebit }) => {
    const consentId = await directDebit.authorisedConsent();
    const first = await directDebit.createPayment();
    requireSuccess(
      await directDebit.confirm([first.paymentId], consentId),
      'direct-debit.confirm.file-uploaded',
      'the first confirm',
    );
    const corporate = directDebit.api.target.psuCorporateId;
    // The status after a confirm may follow a moment later: awaited within timeouts.scaMs.
    await directDebit.consents.statusSettles(
      consentId,
      'valid',
      because(`consentStatus of direct debit consent ${consentId} after one confirm`),
      corporate ? { 'PSU-Corporate-ID': corporate } : {},
    );
    const second = await directDebit.createPayment();
    await expect(
      await directDebit.confirm([second.paymentId], consentId),
      'a second confirm under the same direct debit consent',
    ).toSucceed();
  },
);
