import { randomUUID } from 'node:crypto';
import { prerequisite, requireSuccess } from '../../harness/http/broken.js';
import {
  because,
  consentRequest,
  expect,
  req,
  test,
  type DirectDebitClient,
} from '../../harness/areas/direct-debit.js';
import type { ConsentsClient } from '../../harness/areas/consents.js';

// One-off account-information consents: a recurring one, once authorised, would expire the one
// another test of this file authorised for the same PSU at the same time.
const oneOff = () => ({ body: consentRequest({ recurringIndicator: false, frequencyPerDay: 1 }) });

test(
  'confirm with an authorised direct debit consent answers one FILE_UPLOADED message carrying the file reference',
  req('direct-debit.confirm.file-uploaded'),
  async ({ directDebit }) => {
    const { paymentId } = await directDebit.createPayment();
    const consentId = await directDebit.authorisedConsent();
    const res = await directDebit.confirm([paymentId], consentId);
    // A success (the specification shows no status code; Berlin Group's 200 is not asked for).
    await expect(res).toSucceed();
    await expect(res).toMatchSchema('direct-debit/confirm-response');
    const text = res.json<{ tppMessages: { text: string }[] }>().tppMessages[0].text;
    const reference = directDebit.fileReference(text);
    if (directDebit.api.target.profile.directDebit?.files) {
      expect(
        reference,
        because(
          `the FILE_UPLOADED text carries a file reference matching ${directDebit.api.target.profile.directDebit.files.referencePattern}; text: ${JSON.stringify(text)}`,
        ),
      ).toBeTruthy();
    } else {
      // Without the profile's pattern, a reference is still a reference: a token of at least six
      // characters holding a digit (a name, a number, an id), none of the ids the TPP already holds
      // nor the pain.008 message name.
      const held = [paymentId, consentId];
      const tokens = (text.match(/[A-Za-z0-9][\w.:/-]{5,}/g) ?? []).filter(
        (t) => /\d/.test(t) && !/^pain\.\d{3}/.test(t) && !held.some((id) => t.includes(id)),
      );
      expect(
        tokens,
        because(
          `the FILE_UPLOADED text carries a file reference (a token with a digit, not the paymentId or the consentId); text: ${JSON.stringify(text)}`,
        ),
      ).not.toEqual([]);
    }
  },
);

test('confirm without Consent-ID is refused', req('direct-debit.confirm.consent-required'), async ({ directDebit }) => {
  const { paymentId } = await directDebit.createPayment();
  // The class and no data: the exact code and a tppMessages body are direct-debit.confirm.consent-required-code.
  await expect(await directDebit.confirm([paymentId], null), because('confirm without Consent-ID')).toBeRefused();
});

test(
  'confirm without Consent-ID is answered 400 FORMAT_ERROR',
  req('direct-debit.confirm.consent-required-code'),
  async ({ directDebit }) => {
    const { paymentId } = await directDebit.createPayment();
    await expect(await directDebit.confirm([paymentId], null)).toBeTppError(400, 'FORMAT_ERROR');
  },
);

test(
  'confirm with an authorised account-information consent is refused',
  req('direct-debit.confirm.consent-direct-debit'),
  async ({ directDebit, consents }) => {
    const { paymentId } = await directDebit.createPayment();
    const { consentId } = await consents.createAuthorised(oneOff());
    // The class and no data: the exact code and a tppMessages body are direct-debit.confirm.consent-invalid-code.
    await expect(
      await directDebit.confirm([paymentId], consentId),
      because('confirm under an account-information consent'),
    ).toBeRefused();
  },
);

test(
  'confirm with a direct debit consent whose SCA is not done is refused',
  req('direct-debit.confirm.consent-authorised'),
  async ({ directDebit }) => {
    const { paymentId } = await directDebit.createPayment();
    const consent = await directDebit.createConsent();
    await prerequisite('direct-debit.consent.id-uuid', 'create a direct debit consent', async () =>
      expect(consent).toSucceed(),
    );
    // The class and no data: the exact code and a tppMessages body are direct-debit.confirm.consent-invalid-code.
    await expect(
      await directDebit.confirm([paymentId], consent.json().consentId),
      because('confirm under a direct debit consent whose SCA is not done'),
    ).toBeRefused();
  },
);

test(
  'confirm with an account-information consent is answered 401 CONSENT_INVALID',
  req('direct-debit.confirm.consent-invalid-code'),
  async ({ directDebit, consents }) => {
    const { paymentId } = await directDebit.createPayment();
    const { consentId } = await consents.createAuthorised(oneOff());
    await expect(await directDebit.confirm([paymentId], consentId)).toBeTppError(401, 'CONSENT_INVALID');
  },
);

test(
  'confirm with a direct debit consent whose SCA is not done is answered 401 CONSENT_INVALID',
  req('direct-debit.confirm.consent-invalid-code'),
  async ({ directDebit }) => {
    const { paymentId } = await directDebit.createPayment();
    const consent = requireSuccess(
      await directDebit.createConsent(),
      'direct-debit.consent.id-uuid',
      'create a direct debit consent',
    );
    await expect(await directDebit.confirm([paymentId], consent.json().consentId)).toBeTppError(401, 'CONSENT_INVALID');
  },
);

test(
  'confirm naming an unknown payment id is refused with RESOURCE_UNKNOWN',
  req('direct-debit.confirm.payment-unknown'),
  async ({ directDebit }) => {
    const consentId = await directDebit.authorisedConsent();
    await expect(await directDebit.confirm([randomUUID()], consentId)).toBeTppError(
      [400, 403, 404],
      'RESOURCE_UNKNOWN',
    );
  },
);

test(
  'confirming a payment a second time is refused with 409 STATUS_INVALID',
  req('direct-debit.confirm.already-confirmed'),
  async ({ directDebit }) => {
    const { paymentId } = await directDebit.createPayment();
    const consentId = await directDebit.authorisedConsent();
    await prerequisite('direct-debit.confirm.file-uploaded', 'the first confirm', async () =>
      expect(await directDebit.confirm([paymentId], consentId)).toSucceed(),
    );
    await expect(await directDebit.confirm([paymentId], consentId)).toBeTppError(409, 'STATUS_INVALID');
  },
);

test(
  'confirm with an empty paymentIds array is refused with FORMAT_ERROR',
  req('direct-debit.confirm.payment-ids-required'),
  async ({ directDebit }) => {
    const consentId = await directDebit.authorisedConsent();
    await expect(await directDebit.confirm([], consentId)).toBeTppError(400, 'FORMAT_ERROR');
  },
);

/** The transactionStatus a get payment reads for `paymentId` (a 2xx is the get's own rule). */
async function statusOf(directDebit: DirectDebitClient, paymentId: string): Promise<unknown> {
  const res = requireSuccess(await directDebit.get(paymentId), 'direct-debit.get.fields', `get payment ${paymentId}`);
  return res.json<{ transactionStatus?: unknown }>().transactionStatus;
}

/** The confirms that are refused, each with the Consent-ID it sends (null: none). */
const REFUSED_CONFIRMS: {
  what: string;
  /** The requirement that judges the refusal itself (a confirm taken blocks the check). */
  refusal: string;
  consent: (directDebit: DirectDebitClient, consents: ConsentsClient) => Promise<string | null>;
}[] = [
  { what: 'without Consent-ID', refusal: 'direct-debit.confirm.consent-required', consent: async () => null },
  {
    what: 'with an authorised account-information consent',
    refusal: 'direct-debit.confirm.consent-direct-debit',
    consent: async (_d, consents) => (await consents.createAuthorised(oneOff())).consentId,
  },
  {
    what: 'with a direct debit consent whose SCA is not done',
    refusal: 'direct-debit.confirm.consent-authorised',
    consent: async (directDebit) =>
      requireSuccess(
        await directDebit.createConsent(),
        'direct-debit.consent.id-uuid',
        'create a direct debit consent',
      ).json<{ consentId: string }>().consentId,
  },
];

for (const r of REFUSED_CONFIRMS) {
  test(
    `a confirm ${r.what} generates no file and leaves the payment as it was (read back, then collected by a valid confirm)`,
    req('direct-debit.confirm.refused-no-effect'),
    async ({ directDebit, consents }) => {
      const { paymentId } = await directDebit.createPayment();
      const before = await statusOf(directDebit, paymentId);
      const consentId = await r.consent(directDebit, consents);
      const refused = await directDebit.confirm([paymentId], consentId);
      await prerequisite(r.refusal, `confirm ${r.what} is refused`, async () =>
        expect(refused, because(`confirm ${r.what}`)).toBeRefused(),
      );
      const texts = (refused.body as { tppMessages?: { code?: unknown; text?: unknown }[] } | undefined)?.tppMessages;
      expect(
        (texts ?? []).filter((m) => m.code === 'FILE_UPLOADED'),
        because(`the refused confirm ${r.what} reports no uploaded file; got ${refused.describe()}`),
      ).toEqual([]);
      expect(
        await statusOf(directDebit, paymentId),
        because(`$.transactionStatus of payment ${paymentId} read back after the refused confirm ${r.what}: as before`),
      ).toEqual(before);
      // No file took the payment: a confirm with an authorised direct debit consent collects it now.
      const valid = await directDebit.authorisedConsent();
      const later = await directDebit.confirm([paymentId], valid);
      if (later.status >= 200 && later.status < 300) return;
      // A confirm that fails for every payment is direct-debit.confirm.file-uploaded's failure, not this rule's.
      const { paymentId: fresh } = await directDebit.createPayment();
      await prerequisite('direct-debit.confirm.file-uploaded', 'confirm a fresh collection', async () =>
        expect(await directDebit.confirm([fresh], valid)).toSucceed(),
      );
      await expect(
        later,
        because(
          `confirm of payment ${paymentId} with an authorised direct debit consent after the refused confirm ${r.what} (a fresh collection is confirmed with the same consent)`,
        ),
      ).toSucceed();
    },
  );
}
