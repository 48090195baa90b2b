import { randomUUID } from 'node:crypto';
import { prerequisite, requireSuccess } from '../../harness/http/broken.js';
import { because, consentRequest, expect, req, test } from '../../harness/areas/direct-debit.js';

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
