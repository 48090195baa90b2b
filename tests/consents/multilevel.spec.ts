import { prerequisite } from '../../harness/http/broken.js';
import { because, consentRequest, expect, req, test } from '../../harness/areas/consents.js';

test(
  'with multilevel SCA a corporate consent is valid only after the last signer',
  req('consents.multilevel.last-signer'),
  async ({ consents }) => {
    // The option claims it (consents.multilevelSca brings the feature consents.multilevel-sca) and says how many sign.
    const signers = consents.api.target.profile.consents.multilevelSca?.signers;
    if (!signers) throw new Error('the profile claims consents.multilevel-sca but not consents.multilevelSca.signers');
    const corporate = consents.corporate();
    // One-off access: a recurring consent could end another test's recurring consent of the same PSU.
    const res = await corporate.create({ body: consentRequest({ recurringIndicator: false, frequencyPerDay: 1 }) });
    const consentId = await prerequisite('consents.create.response', 'create the corporate consent', async () => {
      expect(res).toSucceed();
      const id = res.json<{ consentId?: string }>().consentId;
      expect(id, `create consent: a consentId; got ${res.describe()}`).toBeTruthy();
      return id!;
    });
    const psuId = consents.api.target.psuId || 'psu';
    for (let i = 1; i <= signers; i++) {
      // Each signer starts an authorisation of their own (section B: repeated once per required SCA).
      const sca = await corporate.sca.authorise(corporate.basePath(consentId), {
        headers: { ...corporate.psuHeaders(), 'PSU-ID': `${psuId}-signer-${i}` },
      });
      expect(sca.scaStatus, because(`signer ${i} of ${signers} finalises`)).toBe('finalised');
      if (i < signers) {
        const status = await corporate.consentStatus(consentId);
        expect(
          status,
          because(`consentStatus after ${i} of ${signers} signers: not yet valid (a corporate consent needs them all)`),
        ).not.toBe('valid');
      }
    }
    await expect
      .poll(() => corporate.consentStatus(consentId), {
        message: because(`consentStatus (read consent, else consent status) after the last of ${signers} signers`),
        intervals: [500],
        timeout: consents.api.target.timeouts.scaMs,
      })
      .toBe('valid');
  },
);
