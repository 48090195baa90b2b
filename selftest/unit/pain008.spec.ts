import { readFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { validateXML } from 'xmllint-wasm';
import {
  directDebitBody,
  dutchCreditor,
  pain008Summary,
  pain008XsdProblems,
  sepaCreditorId,
  type DirectDebitBody,
} from '../../harness/areas/direct-debit.js';
import { fromRoot } from '../../harness/config/paths.js';
import { creditorIdProblem } from '../../sandbox/direct-debit/creditor-id.js';
import { buildPain008, formatCents, toCents, type Collection } from '../../sandbox/direct-debit/pain008.js';
import type { DirectDebitRequest } from '../../sandbox/direct-debit/payment.js';
import { validatePain008 as pain008Problems, XmllintThread } from '../../spec/iso20022/pain008.js';

/**
 * The pain.008.001.02 files of the sandbox: built by its builder and checked with the suite's
 * own reader and xmllint against the XSD, both for crafted collections and for every file a run
 * of the direct-debit area makes the sandbox write.
 */
const collection = (body: DirectDebitBody, n: number): Collection => ({
  paymentId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  request: body as DirectDebitRequest,
});
const meta = (reference = 'DD-20261121-0A1B2C3D') => ({
  reference,
  createdAt: new Date('2026-11-21T10:00:00Z'),
  initiatingParty: 'Selftest B.V.',
});

test('the builder writes a file that validates against the pain.008.001.02 XSD', async () => {
  const creditor = dutchCreditor();
  const bodies = [
    directDebitBody(creditor),
    directDebitBody(creditor, {
      sequenceType: 'FRST',
      remittanceInformationUnstructuredArray: ['Invoice 1', 'Contract 7'],
    }),
    directDebitBody(creditor, { sequenceType: 'OOFF', debtorAgent: undefined, debtorAddress: undefined }),
    directDebitBody(dutchCreditor(), {
      sequenceType: 'FNAL',
      creditorAddress: undefined,
      remittanceInformationUnstructuredArray: undefined,
    }),
  ];
  const file = buildPain008(bodies.map(collection), meta());
  expect(await pain008XsdProblems(file.xml)).toEqual([]);
  expect(await pain008Problems(file.xml), 'the sandbox validator agrees').toEqual([]);
});

test('NbOfTxs and CtrlSum are exact, for the group and for each PmtInf', async () => {
  const creditor = dutchCreditor();
  const amounts = ['0.10', '0.20', '999999999.99', '999999999.99', '1', '12.3'];
  const bodies = amounts.map((amount, i) =>
    directDebitBody(creditor, { instructedAmount: { currency: 'EUR', amount }, sequenceType: i % 2 ? 'RCUR' : 'FRST' }),
  );
  const file = buildPain008(bodies.map(collection), meta());
  const s = pain008Summary(file.xml);
  expect(s.nbOfTxs).toBe('6');
  expect(s.ctrlSum).toBe('2000000013.58');
  expect(file.ctrlSumCents).toBe(200000001358n);
  expect(s.paymentInfos.map((p) => [p.sequenceType, p.nbOfTxs, p.ctrlSum])).toEqual([
    ['FRST', '3', '1000000001.09'],
    ['RCUR', '3', '1000000012.49'],
  ]);
  expect(await pain008XsdProblems(file.xml)).toEqual([]);
  expect(formatCents(toCents('7.5'))).toBe('7.50');
});

test('there is one PmtInf per creditor, sequence type and collection date', async () => {
  const a = dutchCreditor();
  const b = dutchCreditor();
  const bodies = [
    directDebitBody(a),
    directDebitBody(a),
    directDebitBody(a, { sequenceType: 'FRST' }),
    directDebitBody(a, { requestedExecutionDate: '2030-01-15' }),
    directDebitBody(b),
  ];
  const s = pain008Summary(buildPain008(bodies.map(collection), meta()).xml);
  expect(
    s.paymentInfos.map((p) => `${p.creditorId === a.creditorId ? 'a' : 'b'} ${p.sequenceType} ${p.amounts.length}`),
  ).toEqual(['a RCUR 2', 'a FRST 1', 'a RCUR 1', 'b RCUR 1']);
});

test('the XSD check refuses a file that breaks the schema', async () => {
  const file = buildPain008([collection(directDebitBody(dutchCreditor()), 1)], meta());
  const broken = file.xml.replace('<PmtMtd>DD</PmtMtd>', '<PmtMtd>TRF</PmtMtd>');
  expect((await pain008Problems(broken)).join('\n')).toContain('PmtMtd');
  expect((await pain008XsdProblems(broken)).length).toBeGreaterThan(0);
});

test('files checked at once each get their own answer, as xmllint-wasm gives it, file by file', async () => {
  const file = buildPain008([collection(directDebitBody(dutchCreditor()), 1)], meta());
  const broken = file.xml.replace('<PmtMtd>DD</PmtMtd>', '<PmtMtd>TRF</PmtMtd>');
  const files = [file.xml, broken, '<x/>', 'not xml <', file.xml, broken];
  const own = await Promise.all(files.map((xml) => pain008Problems(xml)));
  const xsd = readFileSync(fromRoot('spec', 'iso20022', 'pain.008.001.02.xsd'), 'utf8');
  const theirs: string[][] = [];
  for (const xml of files) {
    const r = await validateXML({
      xml: [{ fileName: 'collection.xml', contents: xml }],
      schema: [{ fileName: 'pain.008.001.02.xsd', contents: xsd }],
    });
    theirs.push(r.valid ? [] : r.errors.map((e) => e.message));
  }
  expect(own).toEqual(theirs);
  expect(own.map((p) => p.length > 0)).toEqual([false, true, true, true, false, true]);
});

test('an xmllint thread that ends fails the checks waiting on it, saying so; the next check starts another', async () => {
  const thread = new XmllintThread();
  const file = buildPain008([collection(directDebitBody(dutchCreditor()), 1)], meta());
  expect(await pain008Problems(file.xml, thread)).toEqual([]);
  const waiting = [pain008Problems(file.xml, thread), pain008Problems(file.xml, thread)];
  await thread.stop();
  for (const w of waiting)
    await expect(w).rejects.toThrow(
      /^xmllint \(pain\.008 XSD check\): its thread ended \(exit code \d+\); the file was not checked$/,
    );
  // A new thread, whose calls the old one's end does not touch.
  expect(await Promise.all([pain008Problems(file.xml, thread), pain008Problems('<x/>', thread)])).toEqual([
    [],
    ["Schemas validity error : Element 'x': No matching global declaration available for the validation root."],
  ]);
  await thread.stop();
});

test('creditor identifiers: the suite builds them with the check digits the sandbox checks', () => {
  expect(creditorIdProblem('DE98ZZZ09999999999')).toBeUndefined();
  expect(creditorIdProblem('DE97ZZZ09999999999')).toContain('check digits');
  for (let i = 0; i < 50; i++) expect(creditorIdProblem(sepaCreditorId())).toBeUndefined();
  // The business code takes no part in the check digits.
  expect(creditorIdProblem('DE98ABC09999999999')).toBeUndefined();
});
