import { prerequisite } from '../../harness/http/broken.js';
import { because, consentRequest, expect, req, test } from '../../harness/areas/consents.js';

test(
  'a valid create consent answers a success with a consentId, and received when it gives consentStatus',
  req('consents.create.response'),
  async ({ consents }) => {
    const res = await consents.create();
    await expect(res).toSucceed();
    await expect(res).toMatchSchema('consents/consent-created');
    const status = res.json<{ consentStatus?: string }>().consentStatus;
    // consentStatus is listed, not required (consents.create.complete): when given, a new consent is received.
    if (status !== undefined) expect(status, because('a new consent is received (States > Consent)')).toBe('received');
  },
);

test(
  'a valid create consent answers every listed field: consentStatus, consentId and the status and scaStatus links',
  req('consents.create.complete'),
  async ({ consents }) => {
    const res = await consents.create();
    await prerequisite('consents.create.response', 'create the consent', async () => expect(res).toSucceed());
    await expect(res).toMatchSchema('consents/consent-created-complete');
  },
);

test('a valid create consent is answered 201', req('consents.create.response-code'), async ({ consents }) => {
  await expect(await consents.create()).toHaveStatus(201);
});

test('the consent is valid once its SCA is finalised', req('consents.state.valid-after-sca'), async ({ consents }) => {
  // One-off access: a recurring consent could be expired by another test's recurring consent of the same PSU.
  const { consentId, sca } = await consents.createAuthorised({
    body: consentRequest({ recurringIndicator: false, frequencyPerDay: 1 }),
  });
  expect(sca.scaStatus, because('the SCA of the reference PSU finalises')).toBe('finalised');
  // The status may follow the SCA a moment later: awaited within timeouts.scaMs.
  await consents.statusSettles(
    consentId,
    'valid',
    because('consentStatus (read consent, else consent status) after the SCA'),
  );
});
