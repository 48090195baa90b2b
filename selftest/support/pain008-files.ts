import type { FastifyInstance } from 'fastify';
import { cents, pain008Summary, pain008XsdProblems } from '../../harness/areas/direct-debit.js';

/** Every problem of one stored file: the XSD, and its totals against the payments it carries. */
export async function fileProblems(app: FastifyInstance): Promise<{ files: number; problems: string[] }> {
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
