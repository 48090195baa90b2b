import { because, expect, req, test } from '../../harness/areas/direct-debit.js';

test(
  'the whole section H flow: consent, SCA, create, confirm, get, and RJCT for the rejected test mandate',
  req('direct-debit.flow.section-h'),
  async ({ directDebit, target }) => {
    const rejectedMandate = target.profile.directDebit?.rejectedMandateId;
    const consentId = await test.step('direct debit consent with SCA', () => directDebit.authorisedConsent());

    const good = directDebit.body();
    const bad = directDebit.body(
      rejectedMandate
        ? {
            mandateRelatedInformation: {
              mandateId: rejectedMandate,
              dateOfSignature: good.mandateRelatedInformation.dateOfSignature,
            },
          }
        : {},
    );
    // The links are listed, not required: without them, the paths section H gives (confirm, /iso/payments/<paymentId>).
    const created: { paymentId: string; confirm?: string; self: string }[] = [];
    for (const body of [good, bad]) {
      const res = await directDebit.create(body);
      await expect(res).toSucceed();
      await expect(res).toMatchSchema('direct-debit/payment-created');
      const c = res.json<{
        paymentId: string;
        _links?: { confirmPayment?: { href?: string }; self?: { href?: string } };
      }>();
      created.push({
        paymentId: c.paymentId,
        confirm: c._links?.confirmPayment?.href,
        self: c._links?.self?.href ?? c.paymentId,
      });
    }

    const confirm = await directDebit.confirm(
      created.map((c) => c.paymentId),
      consentId,
      { href: created[0].confirm },
    );
    await expect(confirm).toSucceed();
    await expect(confirm).toMatchSchema('direct-debit/confirm-response');

    const read = await directDebit.get(created[0].self);
    await expect(read).toSucceed();
    await expect(read).toMatchSchema('direct-debit/payment');
    expect(read.json().transactionStatus, because('a collection under a good mandate is not rejected')).not.toBe(
      'RJCT',
    );
    if (rejectedMandate) {
      await expect
        .poll(async () => (await directDebit.get(created[1].self)).json().transactionStatus, {
          message: because(`transactionStatus of the collection under the rejected test mandate ${rejectedMandate}`),
          intervals: [500, 1000],
        })
        .toBe('RJCT');
    }
  },
);
