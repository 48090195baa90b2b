import { consentRequest, test as consentsTest, type ConsentsClient } from '../../harness/areas/consents.js';
import { because, COMBINATIONS, expect, label, NO_FX_QUOTE, req, unclaimed } from '../../harness/areas/payments.js';
import { test as basketsTest } from '../../harness/areas/signing-baskets.js';
import { prerequisite } from '../../harness/http/broken.js';
import { mergeTests } from '../../harness/test.js';
import { consentDeclines, declinedBy } from '../../harness/areas/value-spaces.js';
import type { Json } from '../../harness/values/json.js';

// Headers of payment initiation the other header files leave out (Common request headers):
// FX-Quote-Id on international-tp payments, and Consent-ID on payment initiation and basket
// creation in a combined session.

const test = mergeTests(basketsTest, consentsTest);

/**
 * An authorised consent of a combined session (combinedServiceIndicator true). One-off, so that
 * it ends no recurring consent of the PSU that other checks read under.
 */
async function combinedSession(consents: ConsentsClient): Promise<string> {
  const body = consentRequest({ recurringIndicator: false, frequencyPerDay: 1, combinedServiceIndicator: true });
  // A bank without combined sessions may decline them (harness/areas/value-spaces.ts): nothing to judge then.
  const declines = consentDeclines(consents.api.target.profile, body as unknown as Json);
  if (declines.length) {
    const probe = await consents.create({ body });
    const declined = declinedBy(probe, declines, 'consentId');
    test.skip(!!declined, `not judged: the bank declines combined sessions (${probe.describe()})`);
  }
  // Creating a consent with combinedServiceIndicator true is consents.create.combined-service's rule.
  const { consentId, sca } = await consents.createAuthorised({ body, createdBy: 'consents.create.combined-service' });
  await prerequisite('consents.create.response', 'authorise the consent of the combined session', async () =>
    expect(sca.scaStatus, `the combined session's consent: its SCA ends finalised`).toBe('finalised'),
  );
  return consentId;
}

test(
  'initiate payment of an international-tp payment with FX-Quote-Id is accepted',
  req('headers.fx-quote-id.international-tp'),
  async ({ payments }) => {
    test.skip(!payments.target.fxQuoteId, NO_FX_QUOTE);
    const c = COMBINATIONS.find((x) => x.product === 'international-tp' && !unclaimed(payments.target, x));
    test.skip(!c, `not claimed: the profile "${payments.target.profileName}" does not claim international-tp`);
    const quote = payments.target.fxQuoteId!;
    const res = await payments.initiate(c!, { headers: { 'FX-Quote-Id': quote } });
    await expect(res, because(`initiate a ${label(c!)} payment with FX-Quote-Id ${quote}`)).toSucceed();
    expect(
      res.json<{ paymentId?: string }>().paymentId,
      because(`the accepted ${label(c!)} payment has a paymentId; got ${res.describe()}`),
    ).toBeTruthy();
  },
);

test(
  'initiate payment with the Consent-ID of a combined session is accepted',
  req('headers.consent-id.payment-initiation'),
  async ({ payments, consents, claimedPayment: c }) => {
    const consentId = await combinedSession(consents);
    const res = await payments.initiate(c, { headers: { 'Consent-ID': consentId } });
    await expect(res, because(`initiate a ${label(c)} payment with the combined session's Consent-ID`)).toSucceed();
    expect(
      res.json<{ paymentId?: string }>().paymentId,
      because(`the accepted ${label(c)} payment has a paymentId; got ${res.describe()}`),
    ).toBeTruthy();
  },
);

test(
  'create signing basket with the Consent-ID of a combined session is accepted',
  req('headers.consent-id.basket-creation'),
  async ({ baskets, consents, basketPayment: _ }) => {
    const consentId = await combinedSession(consents);
    const items = await baskets.paymentsToSign(2);
    const res = await baskets.create(
      items.map((p) => p.paymentId),
      { 'Consent-ID': consentId },
    );
    await expect(res, because("create a signing basket with the combined session's Consent-ID")).toSucceed();
    expect(
      res.json<{ basketId?: string }>().basketId,
      because(`the accepted basket has a basketId; got ${res.describe()}`),
    ).toBeTruthy();
  },
);
