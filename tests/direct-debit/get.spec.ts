import { randomUUID } from 'node:crypto';
import { prerequisite } from '../../harness/http/broken.js';
import { because, expect, GET_FIELDS, req, test } from '../../harness/areas/direct-debit.js';

test(
  'get payment repeats the fields given on create and adds transactionStatus',
  req('direct-debit.get.fields'),
  async ({ directDebit }) => {
    const { paymentId, body } = await directDebit.createPayment();
    const res = await directDebit.get(paymentId);
    await expect(res).toSucceed();
    await expect(res).toMatchSchema('direct-debit/payment');
    const read = res.json<Record<string, unknown>>();
    for (const field of GET_FIELDS) {
      const sent = body[field];
      // A read-back holds what was sent; an object may carry more fields than were sent.
      if (sent && typeof sent === 'object' && !Array.isArray(sent))
        expect(read[field], because(`get payment field ${field} holds what create sent`)).toMatchObject(
          sent as Record<string, unknown>,
        );
      else expect(read[field], because(`get payment field ${field} equals what create sent`)).toEqual(sent);
    }
    // "The read response repeats these fields and adds `transactionStatus`": a string. Not pinned to
    // RCVD: moves other than those of the state table are not shown.
    expect(read.transactionStatus, because('get payment adds transactionStatus (a string)')).toEqual(
      expect.any(String),
    );
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
    await prerequisite('direct-debit.confirm.file-uploaded', 'confirm the two collections', async () =>
      expect(await directDebit.confirm([good.paymentId, bad.paymentId], consentId)).toSucceed(),
    );
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
