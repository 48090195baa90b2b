import { isoDate } from '../../harness/dates.js';
import { because, consentRequest, expect, req, test } from '../../harness/areas/consents.js';
import { asSecondTpp, NO_SECOND_TPP } from '../../harness/second-tpp.js';
import { dependsOnControl } from '../../harness/test.js';

test(
  'another TPP can neither read, delete nor authorise a consent, and sees none of it',
  req('consents.ownership.other-tpp'),
  async ({ consents }) => {
    const other = asSecondTpp(consents.api);
    test.skip(!other, NO_SECOND_TPP);
    const created = await consents.createdForStep();
    const consentId = created.json<{ consentId: string }>().consentId;
    const path = consents.basePath(consentId);
    const before = (await consents.status(consentId)).json<{ consentStatus?: string }>().consentStatus;
    const headers = consents.psuHeaders();
    for (const [what, res] of [
      ['read', await other!.get(path, { headers })],
      ['status', await other!.get(`${path}/status`, { headers })],
      ['create authorisation', await other!.post(`${path}/authorisations`, { headers })],
      ['list authorisations', await other!.get(`${path}/authorisations`, { headers })],
      ['delete', await other!.delete(path, { headers })],
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
  'combinedServiceIndicator true is answered with a consent or a clear refusal, never a 5xx',
  req('consents.create.combined-service'),
  async ({ consents }) => {
    const res = await consents.api.post(consents.path, {
      json: consentRequest({ combinedServiceIndicator: true }),
      headers: consents.psuHeaders(),
      allow5xx: true,
    });
    if (res.status >= 200 && res.status < 300) {
      const id = res.json<{ consentId?: string }>().consentId;
      if (id) consents.created.push(id);
      expect(
        id,
        because(`a consent created with combinedServiceIndicator true has a consentId; ${res.describe()}`),
      ).toEqual(expect.any(String));
      return;
    }
    // A refusal judges the rule only where the bank accepts a consent without the indicator.
    dependsOnControl('consents.create.response');
    expect(
      res.status >= 400 && res.status < 500,
      because(`combinedServiceIndicator true: a 2xx consent or a 4xx refusal, never ${res.status}; ${res.describe()}`),
    ).toBe(true);
    const messages = (res.body as { tppMessages?: unknown[] } | undefined)?.tppMessages;
    expect(
      Array.isArray(messages) && messages.length > 0,
      because(`a refusal of combinedServiceIndicator true says why (tppMessages); ${res.describe()}`),
    ).toBe(true);
  },
);

test(
  "another TPP's read, status and delete of a consent answer 403 or 404 CONSENT_UNKNOWN or RESOURCE_UNKNOWN",
  req('consents.ownership.other-tpp-code'),
  async ({ consents }) => {
    const other = asSecondTpp(consents.api);
    test.skip(!other, NO_SECOND_TPP);
    const created = await consents.createdForStep();
    const path = consents.basePath(created.json<{ consentId: string }>().consentId);
    const headers = consents.psuHeaders();
    for (const [what, res] of [
      ['read', await other!.get(path, { headers })],
      ['status', await other!.get(`${path}/status`, { headers })],
      ['delete', await other!.delete(path, { headers })],
    ] as const) {
      await expect(res, because(`another TPP's ${what} of the consent`)).toBeTppError(
        [403, 404],
        ['CONSENT_UNKNOWN', 'RESOURCE_UNKNOWN'],
      );
    }
  },
);
