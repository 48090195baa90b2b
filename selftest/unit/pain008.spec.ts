import { expect, test } from '@playwright/test';
import type { FastifyInstance } from 'fastify';
import {
  cents,
  directDebitBody,
  dutchCreditor,
  pain008Summary,
  pain008XsdProblems,
  sepaCreditorId,
  type DirectDebitBody,
} from '../../harness/areas/direct-debit.js';
import { creditorIdProblem } from '../../sandbox/direct-debit/creditor-id.js';
import {
  buildPain008,
  formatCents,
  pain008Problems,
  toCents,
  type Collection,
} from '../../sandbox/direct-debit/pain008.js';
import type { DirectDebitRequest } from '../../sandbox/direct-debit/payment.js';
import { runSuite } from '../support/run-suite.js';
import { startSandbox } from '../support/sandbox.js';

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

/** Every problem of one stored file: the XSD, and its totals against the payments it carries. */
async function fileProblems(app: FastifyInstance): Promise<{ files: number; problems: string[] }> {
  const dd = app.sandbox.directDebit;
  const problems: string[] = [];
  for (const file of dd.files.values()) {
    for (const p of await pain008XsdProblems(file.xml)) problems.push(`${file.reference}: XSD: ${p}`);
    const s = pain008Summary(file.xml);
    const payments = file.paymentIds.map((id) => dd.payments.get(id));
    if (payments.some((p) => !p)) problems.push(`${file.reference}: carries payments the sandbox no longer knows`);
    const sum = payments.reduce((acc, p) => acc + (p ? cents(p.request.instructedAmount.amount) : 0), 0);
    if (s.msgId !== file.reference) problems.push(`${file.reference}: MsgId ${s.msgId}`);
    if (s.nbOfTxs !== String(file.paymentIds.length))
      problems.push(`${file.reference}: GrpHdr/NbOfTxs ${s.nbOfTxs}, confirmed ${file.paymentIds.length} payment(s)`);
    if (cents(s.ctrlSum) !== sum)
      problems.push(`${file.reference}: GrpHdr/CtrlSum ${s.ctrlSum}, confirmed ${sum / 100}`);
    const txs = s.paymentInfos.reduce((n, p) => n + p.amounts.length, 0);
    if (txs !== file.paymentIds.length)
      problems.push(`${file.reference}: ${txs} DrctDbtTxInf for ${file.paymentIds.length} payment(s)`);
    for (const p of s.paymentInfos) {
      if (p.nbOfTxs !== String(p.amounts.length))
        problems.push(
          `${file.reference}: PmtInf ${p.creditorId}/${p.sequenceType} NbOfTxs ${p.nbOfTxs} for ${p.amounts.length}`,
        );
      if (cents(p.ctrlSum) !== p.amounts.reduce((a, x) => a + cents(x), 0))
        problems.push(`${file.reference}: PmtInf ${p.creditorId}/${p.sequenceType} CtrlSum ${p.ctrlSum}`);
    }
  }
  return { files: dd.files.size, problems };
}

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

test('creditor identifiers: the suite builds them with the check digits the sandbox checks', () => {
  expect(creditorIdProblem('DE98ZZZ09999999999')).toBeUndefined();
  expect(creditorIdProblem('DE97ZZZ09999999999')).toContain('check digits');
  for (let i = 0; i < 50; i++) expect(creditorIdProblem(sepaCreditorId())).toBeUndefined();
  // The business code takes no part in the check digits.
  expect(creditorIdProblem('DE98ABC09999999999')).toBeUndefined();
});

test('every file the sandbox writes in a run of the direct-debit area validates and carries the totals confirmed', async () => {
  test.setTimeout(300_000);
  const sandbox = await startSandbox({ scaDelayMs: 600 });
  try {
    const run = await runSuite({
      name: 'direct-debit-files',
      baseUrl: sandbox.baseUrl,
      clientId: sandbox.clientId,
      clientSecret: sandbox.clientSecret,
      projects: ['direct-debit'],
      workers: 3,
      timeoutMs: 280_000,
    });
    expect(run.report?.verdict, `the direct-debit area passes; output:\n${run.output.slice(-2000)}`).toBe('conformant');
    const { files, problems } = await fileProblems(sandbox.app);
    expect(files, 'the run confirmed collections, so files were written').toBeGreaterThan(3);
    expect(problems).toEqual([]);
  } finally {
    await sandbox.close();
  }
});

test('the file check catches a file whose NbOfTxs is wrong (fault direct-debit.file-nboftxs-wrong)', async () => {
  test.setTimeout(300_000);
  const sandbox = await startSandbox({ scaDelayMs: 600, faults: ['direct-debit.file-nboftxs-wrong'] });
  try {
    await runSuite({
      name: 'direct-debit-files-nboftxs',
      baseUrl: sandbox.baseUrl,
      clientId: sandbox.clientId,
      clientSecret: sandbox.clientSecret,
      projects: ['direct-debit'],
      grep: 'section H',
      workers: 1,
      timeoutMs: 280_000,
    });
    const { files, problems } = await fileProblems(sandbox.app);
    expect(files).toBeGreaterThan(0);
    expect(problems.join('\n')).toContain('GrpHdr/NbOfTxs');
  } finally {
    await sandbox.close();
  }
});
