import { because, consentRequest, expect, req, test, type ConsentsClient } from '../../harness/areas/consents.js';

// Read consent only lists consentStatus: without it, the consent status operation's.
const statusOf = (consents: ConsentsClient, id: string) => consents.consentStatus(id);

/** Creates a consent of `psuId` and drives its SCA to the end. */
async function authorisedFor(consents: ConsentsClient, psuId: string, recurring: boolean) {
  const headers = { ...consents.psuHeaders(), 'PSU-ID': psuId };
  const body = consentRequest(recurring ? {} : { recurringIndicator: false, frequencyPerDay: 1 });
  const { consentId, sca } = await consents.createAuthorised({ body, headers, sca: { headers } });
  expect(sca.scaStatus, because(`the SCA of consent ${consentId} must finalise`)).toBe('finalised');
  await expect
    .poll(() => statusOf(consents, consentId), {
      message: because(`consent ${consentId} must be valid once its SCA is finalised`),
      intervals: [500],
    })
    .toBe('valid');
  return consentId;
}

test(
  'a consent whose SCA fails becomes rejected',
  req('consents.state.rejected-after-failed-sca'),
  async ({ consents, target }) => {
    const failing = target.profile.sca?.failingPsuId;
    test.skip(!failing, 'the profile names no failing PSU (sca.failingPsuId)');
    const headers = { ...consents.psuHeaders(), 'PSU-ID': failing! };
    const { consentId, sca } = await consents.createAuthorised({
      body: consentRequest({ recurringIndicator: false, frequencyPerDay: 1 }),
      headers,
      sca: { headers },
    });
    expect(sca.scaStatus, because('the SCA of the failing PSU fails')).toBe('failed');
    await expect
      .poll(() => statusOf(consents, consentId), {
        message: because('consentStatus after a failed SCA'),
        intervals: [500],
      })
      .toBe('rejected');
  },
);

test(
  'a new recurring consent of the same PSU, once authorised, expires the former one',
  req('consents.state.recurring-expires-former'),
  async ({ consents, target }) => {
    // A PSU of its own: this check expires recurring consents, which must not hit other tests' consents.
    const psu = target.profile.consents?.isolatedPsuIds?.[0] ?? target.psuId;
    const former = await authorisedFor(consents, psu, true);
    const latter = await authorisedFor(consents, psu, true);
    await expect
      .poll(() => statusOf(consents, former), {
        message: because(`the former recurring consent must be expired once ${latter} is authorised`),
        intervals: [500],
        timeout: 5000,
      })
      .toBe('expired');
    expect(await statusOf(consents, latter), because('the new recurring consent stays valid')).toBe('valid');
  },
);

test(
  'authorising a one-off consent leaves the recurring consent valid',
  req('consents.state.one-off-keeps-former'),
  async ({ consents, target }) => {
    const psu = target.profile.consents?.isolatedPsuIds?.[1] ?? target.psuId;
    const recurring = await authorisedFor(consents, psu, true);
    await authorisedFor(consents, psu, false);
    expect(
      await statusOf(consents, recurring),
      because('a one-off consent does not end the recurring consent of the PSU'),
    ).toBe('valid');
  },
);
