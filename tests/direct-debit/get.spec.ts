import { randomUUID } from 'node:crypto';
import { because, expect, req, test } from '../../harness/areas/direct-debit.js';
import { directDebitPaymentRequestSchema } from '../../schemas/direct-debit/payment-request.js';

test(
  'get payment repeats the fields given on create and reads RCVD before confirmation',
  req('direct-debit.get.fields'),
  async ({ directDebit }) => {
    const { paymentId, body } = await directDebit.createPayment();
    const res = await directDebit.get(paymentId);
    await expect(res).toHaveStatus(200);
    await expect(res).toMatchSchema('direct-debit/payment');
    const read = res.json<Record<string, unknown>>();
    for (const field of [...directDebitPaymentRequestSchema.required, 'remittanceInformationUnstructuredArray']) {
      expect(read[field], because(`get payment field ${field} equals what create sent`)).toEqual(body[field]);
    }
    expect(read.transactionStatus, because('a direct debit not yet confirmed is RCVD')).toBe('RCVD');
  },
);

test(
  'after confirmation a collection under the rejected test mandate reads RJCT and one under a good mandate does not',
  req('direct-debit.get.rejected-mandate'),
  async ({ directDebit, target }) => {
    const mandateId = target.profile.directDebit?.rejectedMandateId;
    test.skip(!mandateId, 'the profile names no directDebit.rejectedMandateId');
    const good = await directDebit.createPayment();
    const bad = await directDebit.createPayment({
      mandateRelatedInformation: {
        mandateId: mandateId!,
        dateOfSignature: good.body.mandateRelatedInformation.dateOfSignature,
      },
    });
    const consentId = await directDebit.authorisedConsent();
    await expect(await directDebit.confirm([good.paymentId, bad.paymentId], consentId)).toHaveStatus(200);
    await expect
      .poll(async () => (await directDebit.get(bad.paymentId)).json().transactionStatus, {
        message: because(`transactionStatus of the collection under mandate ${mandateId}`),
        intervals: [500, 1000],
      })
      .toBe('RJCT');
    const goodStatus = (await directDebit.get(good.paymentId)).json().transactionStatus;
    expect(goodStatus, because('a collection under a good mandate is not rejected')).not.toBe('RJCT');
  },
);

test(
  'get payment for an unknown paymentId is answered RESOURCE_UNKNOWN',
  req('direct-debit.get.unknown'),
  async ({ directDebit }) => {
    await expect(await directDebit.get(randomUUID())).toBeTppError([403, 404], 'RESOURCE_UNKNOWN');
  },
);
