import { requireSuccess } from '../../harness/http/broken.js';
import { isoDate } from '../../harness/values/dates.js';
import { because, consentRequest, expect, req, test, type ConsentRequest } from '../../harness/areas/consents.js';
import { directDebitConsentBody, directDebitConsentScope } from '../../harness/areas/direct-debit.js';
import { consentDeclines, declinedBy } from '../../harness/areas/value-spaces.js';
import type { Json } from '../../harness/values/json.js';

const IBAN = 'DE89370400440532013000';
const REQUIRED = ['access', 'recurringIndicator', 'validUntil', 'frequencyPerDay', 'combinedServiceIndicator'] as const;

const without = (field: string): Record<string, unknown> => {
  const body: Record<string, unknown> = { ...consentRequest() };
  delete body[field];
  return body;
};

test(
  'a successful create consent carries Location and ASPSP-SCA-Approach',
  req('consents.create.headers'),
  async ({ consents }) => {
    const res = await consents.create();
    // The headers are judged on any 2xx (the exact code is consents.create.response-code's); a
    // create not accepted blocks, consents.create.response judging it.
    requireSuccess(res, 'consents.create.response', 'create the consent');
    await expect(res).toHaveHeader('Location', new RegExp(`${res.json().consentId}`));
    await expect(res).toHaveHeader('ASPSP-SCA-Approach', /^(EMBEDDED|DECOUPLED|REDIRECT)$/);
  },
);

// Each check twice: the MUST of the refusal, and the SHOULD of its status code (each id written out).
for (const { status, ids } of [
  {
    status: undefined,
    ids: {
      requiredFields: 'consents.create.required-fields',
      fieldTypes: 'consents.create.field-types',
      frequencyMin: 'consents.limits.frequency-min',
      oneOff: 'consents.limits.frequency-one-off',
    },
  },
  {
    status: 400,
    ids: {
      requiredFields: 'consents.create.required-fields-code',
      fieldTypes: 'consents.create.field-types-code',
      frequencyMin: 'consents.limits.frequency-min-code',
      oneOff: 'consents.limits.frequency-one-off-code',
    },
  },
] as const) {
  test(
    `a create-consent body without a required field is ${status ? `answered ${status}` : 'refused'}`,
    req(ids.requiredFields),
    async ({ consents }) => {
      for (const field of REQUIRED) {
        const res = await consents.create({ body: without(field) as unknown as ConsentRequest });
        await expect.soft(res, `create consent without "${field}"`).toBeRefused(status);
        // The MUST: no consent was created. A refusal names none in its body (toBeRefused); one it
        // names in Location must not be readable.
        const location = res.header('Location');
        if (!status && location) {
          const read = await consents.api.get(location);
          expect
            .soft(
              read.status >= 200 && read.status < 300,
              because(
                `create consent without "${field}" was refused, yet the consent its Location names (${location}) reads: ${read.describe()}`,
              ),
            )
            .toBe(false);
        }
      }
    },
  );

  test(
    `a create-consent body with a field of the wrong type is ${status ? `answered ${status}` : 'refused'}`,
    req(ids.fieldTypes),
    async ({ consents }) => {
      const cases: [string, Record<string, unknown>][] = [
        ['access as a string', { access: 'allAccounts' }],
        ['recurringIndicator as the string "true"', { recurringIndicator: 'true' }],
        ['validUntil not a date', { validUntil: '31.12.2030' }],
        ['frequencyPerDay as the string "4"', { frequencyPerDay: '4' }],
        ['frequencyPerDay not an integer (2.5)', { frequencyPerDay: 2.5 }],
        ['combinedServiceIndicator as a number', { combinedServiceIndicator: 0 }],
      ];
      for (const [what, patch] of cases) {
        const res = await consents.create({ body: { ...consentRequest(), ...patch } as ConsentRequest });
        await expect.soft(res, `create consent with ${what}`).toBeRefused(status);
      }
    },
  );

  test(
    `frequencyPerDay 0 is ${status ? `answered ${status}` : 'refused'}`,
    req(ids.frequencyMin),
    async ({ consents }) => {
      const res = await consents.create({ body: consentRequest({ frequencyPerDay: 0 }) });
      await expect(res, 'frequencyPerDay is at least 1').toBeRefused(status);
    },
  );

  test(
    `a one-off consent with frequencyPerDay 2 is ${status ? `answered ${status}` : 'refused'}`,
    req(ids.oneOff),
    async ({ consents }) => {
      const res = await consents.create({ body: consentRequest({ recurringIndicator: false, frequencyPerDay: 2 }) });
      await expect(res, 'one-off access (recurringIndicator false) uses frequencyPerDay 1').toBeRefused(status);
    },
  );
}

test(
  'a malformed create-consent body is a FORMAT_ERROR whose path names the field',
  req('consents.create.format-error'),
  async ({ consents }) => {
    const res = await consents.create({ body: without('frequencyPerDay') as unknown as ConsentRequest });
    await expect(res).toBeTppError(400, 'FORMAT_ERROR', { path: 'frequencyPerDay' });
  },
);

test(
  'account references by iban, maskedPan and pan, with an optional currency, are accepted or declined as unknown accounts',
  req('consents.create.account-references'),
  async ({ consents }) => {
    const refs = [
      { iban: IBAN },
      { iban: IBAN, currency: 'EUR' },
      { maskedPan: '123456xxxxxx1234' },
      { pan: '5409050000000000', currency: 'EUR' },
    ];
    let baselineJudged = false;
    for (const ref of refs) {
      const body = consentRequest({ access: { balances: [ref], transactions: [ref] } });
      const res = await consents.create({ body });
      // The sentence gives a reference's form, not which accounts: a bank may decline a reference to
      // an account the PSU does not hold with RESOURCE_UNKNOWN (harness/areas/value-spaces.ts), beside
      // the bank-offered consent (empty lists) accepted; a refusal of the form (any other) fails.
      const declined = declinedBy(
        res,
        consentDeclines(consents.api.target.profile, body as unknown as Json),
        'consentId',
      );
      if (declined && !baselineJudged) {
        await expect(
          await consents.create(),
          because(`the bank-offered consent, beside ${res.describe()}`),
        ).toSucceed();
        baselineJudged = true;
      }
      if (declined) continue;
      // Accepted is any 2xx: the exact code is consents.create.response-code's.
      await expect.soft(res, `create consent with the reference ${JSON.stringify(ref)} must be accepted`).toSucceed();
    }
  },
);

for (const [id, what, ref] of [
  ['consents.create.account-reference-invalid', 'without iban, maskedPan or pan', { currency: 'EUR' }],
  [
    'consents.create.account-reference-iban-check',
    'whose IBAN fails the mod-97 check',
    { iban: 'DE00370400440532013000' },
  ],
] as const) {
  test(`an account reference ${what} is refused`, req(id), async ({ consents }) => {
    const res = await consents.create({ body: consentRequest({ access: { balances: [ref], transactions: [] } }) });
    await expect(res, `create consent with the reference ${JSON.stringify(ref)}`).toBeRefused();
  });
}

test(
  'frequencyPerDay above the maximum is refused and the maximum is accepted',
  req('consents.limits.frequency-max'),
  async ({ consents, target }) => {
    const max = target.profile.consents.maxFrequencyPerDay;
    const ok = await consents.create({ body: consentRequest({ frequencyPerDay: max }) });
    await expect(ok, `frequencyPerDay ${max} (the maximum) must be accepted`).toSucceed();
    const res = await consents.create({ body: consentRequest({ frequencyPerDay: max + 1 }) });
    await expect(res, `frequencyPerDay ${max + 1} is above the maximum of ${max}`).toBeRefused();
  },
);

test(
  'frequencyPerDay above the maximum is answered 400',
  req('consents.limits.frequency-max-code'),
  async ({ consents, target }) => {
    const max = target.profile.consents.maxFrequencyPerDay;
    const res = await consents.create({ body: consentRequest({ frequencyPerDay: max + 1 }) });
    await expect(res, `frequencyPerDay ${max + 1} is above the maximum of ${max}`).toBeRefused(400);
  },
);

test(
  'X-Consent-Type sepaDirectDebit creates a consent in status received',
  req('consents.create.direct-debit'),
  async ({ consents }) => {
    // As the direct debit area makes it: long-lived, in the corporate context, with the profile's scope.
    const t = consents.api.target;
    const res = await consents.api.post(consents.path, {
      json: directDebitConsentBody(),
      scope: directDebitConsentScope(t.profile),
      headers: {
        ...consents.psuHeaders(),
        ...(t.psuCorporateId ? { 'PSU-Corporate-ID': t.psuCorporateId } : {}),
        'X-Consent-Type': 'sepaDirectDebit',
      },
    });
    const id =
      res.status >= 200 && res.status < 300 ? (res.body as { consentId?: string } | undefined)?.consentId : undefined;
    if (id) consents.created.push(id);
    await expect(res).toSucceed();
    await expect(res).toMatchSchema('consents/consent-created');
    const status = res.json<{ consentStatus?: string }>().consentStatus;
    // consentStatus is listed, not required: when given, a new direct debit consent is received.
    if (status !== undefined) expect(status, because('a new direct debit consent is received')).toBe('received');
  },
);

test(
  'create consent with a paymentinitiation token is refused',
  req('consents.scope.accountinformation'),
  async ({ consents }) => {
    const res = await consents.api.post(consents.path, {
      json: consentRequest(),
      scope: 'paymentinitiation',
      headers: consents.psuHeaders(),
    });
    if (res.status >= 200 && res.status < 300) consents.created.push(res.json<{ consentId: string }>().consentId);
    await expect(res).toHaveStatus([401, 403]);
  },
);

test('a validUntil in the past is rejected with 400', req('consents.valid-until.past'), async ({ consents }) => {
  const res = await consents.create({ body: consentRequest({ validUntil: isoDate(-2) }) });
  await expect(res, `validUntil ${isoDate(-2)} is in the past`).toBeRefused(400);
});
