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
    const created: { paymentId: string; _links: { confirmPayment: { href: string }; self: { href: string } } }[] = [];
    for (const body of [good, bad]) {
      const res = await directDebit.create(body);
      await expect(res).toHaveStatus([200, 201]);
      await expect(res).toMatchSchema('direct-debit/payment-created');
      created.push(
        res.json<{ paymentId: string; _links: { confirmPayment: { href: string }; self: { href: string } } }>(),
      );
    }

    const confirm = await directDebit.confirm(
      created.map((c) => c.paymentId),
      consentId,
      { href: created[0]._links.confirmPayment.href },
    );
    await expect(confirm).toHaveStatus(200);
    await expect(confirm).toMatchSchema('direct-debit/confirm-response');

    const read = await directDebit.get(created[0]._links.self.href);
    await expect(read).toHaveStatus(200);
    await expect(read).toMatchSchema('direct-debit/payment');
    expect(read.json().transactionStatus, because('a collection under a good mandate is not rejected')).not.toBe(
      'RJCT',
    );
    if (rejectedMandate) {
      await expect
        .poll(async () => (await directDebit.get(created[1]._links.self.href)).json().transactionStatus, {
          message: because(`transactionStatus of the collection under the rejected test mandate ${rejectedMandate}`),
          intervals: [500, 1000],
        })
        .toBe('RJCT');
    }
  },
);
