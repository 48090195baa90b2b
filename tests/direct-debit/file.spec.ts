import { isoDate } from '../../harness/values/dates.js';
import { requireSuccess } from '../../harness/http/broken.js';
import {
  because,
  cents,
  dutchCreditor,
  expect,
  pain008Summary,
  pain008XsdProblems,
  req,
  test,
  type DirectDebitClient,
} from '../../harness/areas/direct-debit.js';

/** Confirms the given collections with a fresh consent and fetches the file FILE_UPLOADED names. */
async function confirmAndFetch(directDebit: DirectDebitClient, paymentIds: string[]) {
  const consentId = await directDebit.authorisedConsent();
  const confirm = requireSuccess(
    await directDebit.confirm(paymentIds, consentId),
    'direct-debit.confirm.file-uploaded',
    'confirm the collections',
  );
  const text =
    confirm
      .json<{ tppMessages?: { text?: string }[] }>()
      .tppMessages?.map((m) => m.text ?? '')
      .join(' ') ?? '';
  const reference = directDebit.fileReference(text);
  expect(
    reference,
    because(
      `the confirm answer's text carries a file reference matching the profile's directDebit.files.referencePattern; text: ${JSON.stringify(text)}`,
    ),
  ).toBeTruthy();
  const file = await directDebit.fetchFile(reference!);
  await expect(file).toSucceed();
  return { reference: reference!, xml: file.text };
}

test(
  'the generated file validates against the pain.008.001.02 XSD',
  req('direct-debit.file.pain008-valid'),
  async ({ directDebit }) => {
    const a = await directDebit.createPayment();
    const b = await directDebit.createPayment({ sequenceType: 'FRST' });
    const { reference, xml } = await confirmAndFetch(directDebit, [a.paymentId, b.paymentId]);
    const problems = await pain008XsdProblems(xml);
    expect(problems, because(`file ${reference} validates against spec/iso20022/pain.008.001.02.xsd`)).toEqual([]);
    expect(xml, because('the file is a SEPA CORE direct debit: PmtMtd DD')).toMatch(/<(\w+:)?PmtMtd>DD</);
    expect(xml, because('service level SEPA')).toMatch(/<(\w+:)?SvcLvl>\s*<(\w+:)?Cd>SEPA</);
    expect(xml, because('local instrument CORE')).toMatch(/<(\w+:)?LclInstrm>\s*<(\w+:)?Cd>CORE</);
  },
);

test(
  'every collection of the file is to be debited on its execution date (ReqdColltnDt of its PmtInf is its requestedExecutionDate)',
  req('direct-debit.file.collection-date'),
  async ({ directDebit }) => {
    const made = [
      await directDebit.createPayment({ requestedExecutionDate: isoDate(5) }),
      await directDebit.createPayment({ requestedExecutionDate: isoDate(12) }),
    ];
    const { reference, xml } = await confirmAndFetch(
      directDebit,
      made.map((m) => m.paymentId),
    );
    const dateOf = new Map<string, string | undefined>();
    for (const p of pain008Summary(xml).paymentInfos)
      for (const mandate of p.mandateIds) if (mandate) dateOf.set(mandate, p.collectionDate);
    for (const m of made) {
      const mandate = m.body.mandateRelatedInformation.mandateId;
      expect(
        dateOf.has(mandate) ? dateOf.get(mandate) : '(no DrctDbtTxInf with this MndtId)',
        because(
          `${reference}: the collection of mandate ${mandate} is debited on its requestedExecutionDate ${m.body.requestedExecutionDate} (ReqdColltnDt of its PmtInf)`,
        ),
      ).toBe(m.body.requestedExecutionDate);
    }
  },
);

test(
  'every collection of the file is instructed in EUR (InstdAmt Ccy), the currency of the payments confirmed',
  req('direct-debit.file.currency-eur'),
  async ({ directDebit }) => {
    const a = await directDebit.createPayment();
    const b = await directDebit.createPayment({ sequenceType: 'FRST' });
    const { reference, xml } = await confirmAndFetch(directDebit, [a.paymentId, b.paymentId]);
    const currencies = pain008Summary(xml).paymentInfos.flatMap((p) => p.currencies);
    expect(currencies.length, because(`${reference} holds the two collections confirmed`)).toBe(2);
    expect(
      currencies.filter((c) => c !== 'EUR'),
      because(`InstdAmt Ccy of every DrctDbtTxInf of ${reference} is EUR; got ${JSON.stringify(currencies)}`),
    ).toEqual([]);
  },
);

test(
  'the file totals match the payments confirmed, with one PmtInf per creditor, sequence type and date',
  req('direct-debit.file.totals'),
  async ({ directDebit }) => {
    const other = dutchCreditor();
    const made = [
      await directDebit.createPayment(),
      await directDebit.createPayment(),
      await directDebit.createPayment({ sequenceType: 'FRST' }),
      await directDebit.createPayment({
        creditorName: other.name,
        creditorId: other.creditorId,
        creditorAccount: { iban: other.iban, currency: 'EUR' },
        creditorAgent: other.bic,
      }),
    ];
    const { reference, xml } = await confirmAndFetch(
      directDebit,
      made.map((m) => m.paymentId),
    );
    const s = pain008Summary(xml);
    const sum = made.reduce((acc, m) => acc + cents(m.body.instructedAmount.amount), 0);
    expect(s.nbOfTxs, because(`GrpHdr/NbOfTxs of ${reference} is the number of payments confirmed`)).toBe(
      String(made.length),
    );
    expect(
      cents(s.ctrlSum),
      because(`GrpHdr/CtrlSum of ${reference} (${s.ctrlSum}) is the sum of the amounts confirmed`),
    ).toBe(sum);
    const groups = s.paymentInfos.map((p) => `${p.creditorId}|${p.creditorIban}|${p.sequenceType}|${p.collectionDate}`);
    expect(
      new Set(groups).size,
      because(
        `each PmtInf of ${reference} is one creditor, sequence type and collection date: ${JSON.stringify(groups)}`,
      ),
    ).toBe(groups.length);
    expect(
      groups.length,
      because(`three creditor / sequence type / date groups were confirmed: ${JSON.stringify(groups)}`),
    ).toBe(3);
    for (const p of s.paymentInfos) {
      if (p.nbOfTxs !== undefined)
        expect(p.nbOfTxs, because(`PmtInf NbOfTxs of ${p.creditorId} ${p.sequenceType} counts its transactions`)).toBe(
          String(p.amounts.length),
        );
      if (p.ctrlSum !== undefined)
        expect(
          cents(p.ctrlSum),
          because(`PmtInf CtrlSum of ${p.creditorId} ${p.sequenceType} sums its transactions`),
        ).toBe(p.amounts.reduce((a, x) => a + cents(x), 0));
    }
  },
);
