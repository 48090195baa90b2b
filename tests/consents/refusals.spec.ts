import { isoDate } from '../../harness/values/dates.js';
import { because, consentRequest, expect, req, test } from '../../harness/areas/consents.js';
import { consentDeclines, declinedBy, describeDecline, MAY_DECLINE } from '../../harness/areas/value-spaces.js';
import type { Json } from '../../harness/values/json.js';

test(
  'another TPP can neither read, delete nor authorise a consent, and sees none of it',
  req('consents.ownership.other-tpp'),
  async ({ consents, secondTpp }) => {
    const other = secondTpp(consents.api);
    const created = await consents.createdForStep();
    const consentId = created.json<{ consentId: string }>().consentId;
    const path = consents.basePath(consentId);
    const before = (await consents.status(consentId)).json<{ consentStatus?: string }>().consentStatus;
    const headers = consents.psuHeaders();
    for (const [what, res] of [
      ['read', await other.get(path, { headers })],
      ['status', await other.get(`${path}/status`, { headers })],
      ['create authorisation', await other.post(`${path}/authorisations`, { headers })],
      ['list authorisations', await other.get(`${path}/authorisations`, { headers })],
      ['delete', await other.delete(path, { headers })],
    ] as const) {
      await expect(res, because(`another TPP's ${what} of the consent`)).toBeRefused();
    }
    const after = await consents.status(consentId);
    await expect(after).toSucceed();
    expect(
      after.json<{ consentStatus?: string }>().consentStatus,
      because("the consent's status after another TPP's calls on it: unchanged"),
    ).toBe(before);
  },
);

test('deleting a consent a second time is refused', req('consents.delete.twice'), async ({ consents }) => {
  const created = await consents.createdForStep();
  const consentId = created.json<{ consentId: string }>().consentId;
  await expect(await consents.delete(consentId), because('the first delete')).toSucceed();
  await expect(await consents.delete(consentId), because('deleting the deleted consent again')).toBeRefused();
});

test('a validUntil of today (not in the past) is accepted', req('consents.valid-until.today'), async ({ consents }) => {
  const today = isoDate(0);
  const res = await consents.create({ body: consentRequest({ validUntil: today }) });
  await expect(res, because(`validUntil ${today}, today`)).toSucceed();
  expect(res.json<{ consentId?: string }>().consentId, because('a consentId')).toEqual(expect.any(String));
});

test(
  'create consent with an empty body or a body that is not JSON is refused',
  req('consents.create.body-json'),
  async ({ consents }) => {
    const headers = consents.psuHeaders();
    for (const [what, raw, type] of [
      ['an empty body', '', 'application/json'],
      ['a body that is not JSON', 'access=all&recurringIndicator=true', 'application/json'],
      ['a body that is not JSON, sent as text', 'give me every account', 'text/plain'],
    ] as const) {
      const res = await consents.api.post(consents.path, { raw, headers: { ...headers, 'Content-Type': type } });
      const id = res.status >= 200 && res.status < 300 ? res.json<{ consentId?: string }>()?.consentId : undefined;
      if (id) consents.created.push(id);
      await expect(res, because(`create consent with ${what}`)).toBeRefused();
    }
  },
);

test(
  'combinedServiceIndicator true, a value the field allows, is accepted, or declined with SESSIONS_NOT_SUPPORTED beside false accepted',
  req('consents.create.combined-service'),
  async ({ consents }) => {
    const body = consentRequest({ combinedServiceIndicator: true });
    const res = await consents.api.post(consents.path, { json: body, headers: consents.psuHeaders(), allow5xx: true });
    const id = res.status >= 200 && res.status < 300 ? res.json<{ consentId?: string }>()?.consentId : undefined;
    if (id) consents.created.push(id);
    // The field's sentence says what true means, not that every bank offers combined sessions: a bank
    // without them may decline it with 400 SESSIONS_NOT_SUPPORTED (reference facts), unless the profile
    // claims them offered (consents.combinedSessions), as long as the same consent with false is accepted.
    const declines = consentDeclines(consents.api.target.profile, body as unknown as Json).filter(
      (d) => d === MAY_DECLINE.combinedSession,
    );
    const declined = declinedBy(res, declines, 'consentId');
    if (declined) {
      const baseline = await consents.create();
      await expect(
        baseline,
        because(`the same consent with combinedServiceIndicator false, beside the decline of true (${res.describe()})`),
      ).toSucceed();
      test.info().annotations.push({ type: 'declined', description: describeDecline(declined) });
      return;
    }
    await expect(res, because('create consent with combinedServiceIndicator true')).toSucceed();
    expect(
      id,
      because(`a consent created with combinedServiceIndicator true has a consentId; ${res.describe()}`),
    ).toEqual(expect.any(String));
  },
);

test(
  "another TPP's read, status and delete of a consent answer 403 or 404 CONSENT_UNKNOWN or RESOURCE_UNKNOWN",
  req('consents.ownership.other-tpp-code'),
  async ({ consents, secondTpp }) => {
    const other = secondTpp(consents.api);
    const created = await consents.createdForStep();
    const path = consents.basePath(created.json<{ consentId: string }>().consentId);
    const headers = consents.psuHeaders();
    for (const [what, res] of [
      ['read', await other.get(path, { headers })],
      ['status', await other.get(`${path}/status`, { headers })],
      ['delete', await other.delete(path, { headers })],
    ] as const) {
      await expect(res, because(`another TPP's ${what} of the consent`)).toBeTppError(
        [403, 404],
        ['CONSENT_UNKNOWN', 'RESOURCE_UNKNOWN'],
      );
    }
  },
);
