import { because, consentRequest, expect, req, test } from '../../harness/areas/consents.js';

// Beyond creation (read.spec.ts judges the new consent's received, the MUST the state table states):
// the status operation follows the consent through its SCA and its deletion. The moves are "not
// shown" and terminatedByTpp is not named by the specification: a SHOULD on the reference facts.
test(
  'consent status answers the consentStatus the consent reached: valid after its SCA, terminatedByTpp after its deletion',
  req('consents.status.follows'),
  async ({ consents, target }) => {
    // One-off access: a recurring consent could be expired by another test's recurring consent of the same PSU.
    const { consentId, sca } = await consents.createAuthorised({
      body: consentRequest({ recurringIndicator: false, frequencyPerDay: 1 }),
    });
    expect(sca.scaStatus, because('the SCA of the reference PSU finalises')).toBe('finalised');
    const statusNow = async () => {
      const st = await consents.status(consentId);
      await expect(st).toSucceed();
      await expect(st).toMatchSchema('consents/consent-status');
      return st.json<{ consentStatus?: string }>().consentStatus;
    };
    // The consent may move a moment after its SCA: polled on the value, then judged whole once.
    await expect
      .poll(async () => (await consents.status(consentId)).json<{ consentStatus?: unknown }>().consentStatus, {
        message: because(`consent status of ${consentId} once its SCA is finalised`),
        intervals: [500],
        timeout: 5000,
      })
      .toBe('valid');
    expect(await statusNow(), because(`consent status of ${consentId} once its SCA is finalised`)).toBe('valid');
    await expect(await consents.delete(consentId)).toSucceed();
    // A consent the profile says is gone once deleted (consents.afterDelete) has no status left to read.
    if (target.profile.consents?.afterDelete !== 'gone')
      expect(await statusNow(), because(`consent status of ${consentId} once the TPP deleted it`)).toBe(
        'terminatedByTpp',
      );
  },
);

const BG_VALUES = ['received', 'rejected', 'valid', 'revokedByPsu', 'expired', 'terminatedByTpp'];

test(
  "every consentStatus the status operation answers is one of Berlin Group's values",
  req('consents.status.values'),
  async ({ consents }) => {
    const { consentId } = await consents.createAuthorised({
      body: consentRequest({ recurringIndicator: false, frequencyPerDay: 1 }),
    });
    const seen = [(await consents.status(consentId)).json<{ consentStatus?: unknown }>().consentStatus];
    await expect(await consents.delete(consentId)).toSucceed();
    const after = await consents.status(consentId);
    if (after.status === 200) seen.push(after.json<{ consentStatus?: unknown }>().consentStatus);
    for (const value of seen)
      expect
        .soft(
          BG_VALUES,
          because(`consentStatus ${JSON.stringify(value)} of ${consentId} is one of ${BG_VALUES.join(', ')}`),
        )
        .toContain(value);
  },
);
