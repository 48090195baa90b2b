import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import type { Address, DirectDebitRequest } from './payment.js';

const PAIN008_NS = 'urn:iso:std:iso:20022:tech:xsd:pain.008.001.02';

export interface Collection {
  /** The payment id; it is the InstrId of the transaction, so a file can be traced back. */
  paymentId: string;
  request: DirectDebitRequest;
}

export interface Pain008File {
  /** The file reference: also its MsgId. */
  reference: string;
  xml: string;
  nbOfTxs: number;
  /** Sum of the amounts, in euro cents (exact). */
  ctrlSumCents: bigint;
  /** Number of PmtInf blocks (one per creditor, sequence type and collection date). */
  paymentInfos: number;
}

/** "12.5" → 1250n: amounts are summed as integers so CtrlSum is exact. */
export const toCents = (amount: string): bigint => {
  const [whole, frac = ''] = amount.split('.');
  return BigInt(whole) * 100n + BigInt((frac + '00').slice(0, 2));
};
export const formatCents = (cents: bigint): string => `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;

const creditorKey = (r: DirectDebitRequest) =>
  JSON.stringify([
    r.creditorId,
    r.creditorAccount.iban,
    r.creditorAgent,
    r.creditorName,
    r.sequenceType,
    r.requestedExecutionDate,
  ]);

function address(parent: XMLBuilder, a: Address | string | undefined): void {
  if (a === undefined) return;
  const adr = parent.ele('PstlAdr');
  if (typeof a === 'string') {
    adr.ele('AdrLine').txt(a.slice(0, 70));
    return;
  }
  if (a.street) adr.ele('StrtNm').txt(a.street);
  if (a.buildingNumber) adr.ele('BldgNb').txt(a.buildingNumber);
  if (a.postalCode) adr.ele('PstCd').txt(a.postalCode);
  if (a.city) adr.ele('TwnNm').txt(a.city);
  adr.ele('Ctry').txt(a.country);
}

function agent(parent: XMLBuilder, name: string, bic: string | undefined): void {
  const fin = parent.ele(name).ele('FinInstnId');
  // SEPA allows the debtor agent to be left out: the scheme's placeholder is Othr/Id NOTPROVIDED.
  if (bic) fin.ele('BIC').txt(bic);
  else fin.ele('Othr').ele('Id').txt('NOTPROVIDED');
}

/**
 * Builds a pain.008.001.02 customer direct debit initiation: one PmtInf per creditor, sequence
 * type and requested collection date, with NbOfTxs and CtrlSum for the group and for each PmtInf.
 */
export function buildPain008(
  collections: Collection[],
  meta: { reference: string; createdAt: Date; initiatingParty: string },
): Pain008File {
  if (collections.length === 0) throw new Error('pain.008: no collections');
  const groups = new Map<string, Collection[]>();
  for (const c of collections) {
    const key = creditorKey(c.request);
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const total = collections.reduce((s, c) => s + toCents(c.request.instructedAmount.amount), 0n);
  const doc = create({ version: '1.0', encoding: 'UTF-8' }).ele(PAIN008_NS, 'Document');
  const root = doc.ele('CstmrDrctDbtInitn');
  const hdr = root.ele('GrpHdr');
  hdr.ele('MsgId').txt(meta.reference);
  hdr.ele('CreDtTm').txt(meta.createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z'));
  hdr.ele('NbOfTxs').txt(String(collections.length));
  hdr.ele('CtrlSum').txt(formatCents(total));
  hdr.ele('InitgPty').ele('Nm').txt(meta.initiatingParty.slice(0, 70));

  let n = 0;
  for (const members of groups.values()) {
    const first = members[0].request;
    const info = root.ele('PmtInf');
    info.ele('PmtInfId').txt(`${meta.reference}-${++n}`);
    info.ele('PmtMtd').txt('DD');
    info.ele('NbOfTxs').txt(String(members.length));
    info.ele('CtrlSum').txt(formatCents(members.reduce((s, c) => s + toCents(c.request.instructedAmount.amount), 0n)));
    const tp = info.ele('PmtTpInf');
    tp.ele('SvcLvl').ele('Cd').txt('SEPA');
    tp.ele('LclInstrm').ele('Cd').txt(first.localInstrumentCode);
    tp.ele('SeqTp').txt(first.sequenceType);
    info.ele('ReqdColltnDt').txt(first.requestedExecutionDate);
    const cdtr = info.ele('Cdtr');
    cdtr.ele('Nm').txt(first.creditorName);
    address(cdtr, first.creditorAddress);
    const acct = info.ele('CdtrAcct');
    acct.ele('Id').ele('IBAN').txt(first.creditorAccount.iban);
    acct.ele('Ccy').txt('EUR');
    agent(info, 'CdtrAgt', first.creditorAgent);
    info.ele('ChrgBr').txt('SLEV');
    const schme = info.ele('CdtrSchmeId').ele('Id').ele('PrvtId').ele('Othr');
    schme.ele('Id').txt(first.creditorId);
    schme.ele('SchmeNm').ele('Prtry').txt('SEPA');
    for (const { paymentId, request: r } of members) {
      const tx = info.ele('DrctDbtTxInf');
      const id = tx.ele('PmtId');
      id.ele('InstrId').txt(paymentId.replace(/-/g, '').slice(0, 35));
      id.ele('EndToEndId').txt(r.endToEndIdentification ?? 'NOTPROVIDED');
      tx.ele('InstdAmt', { Ccy: 'EUR' }).txt(formatCents(toCents(r.instructedAmount.amount)));
      const mndt = tx.ele('DrctDbtTx').ele('MndtRltdInf');
      mndt.ele('MndtId').txt(r.mandateRelatedInformation.mandateId);
      mndt.ele('DtOfSgntr').txt(r.mandateRelatedInformation.dateOfSignature);
      agent(tx, 'DbtrAgt', r.debtorAgent);
      const dbtr = tx.ele('Dbtr');
      dbtr.ele('Nm').txt(r.debtorName);
      address(dbtr, r.debtorAddress);
      tx.ele('DbtrAcct').ele('Id').ele('IBAN').txt(r.debtorAccount.iban);
      const lines = r.remittanceInformationUnstructuredArray ?? [];
      if (lines.length) {
        const rmt = tx.ele('RmtInf');
        for (const l of lines) rmt.ele('Ustrd').txt(l);
      }
    }
  }
  return {
    reference: meta.reference,
    xml: doc.end({ prettyPrint: true }),
    nbOfTxs: collections.length,
    ctrlSumCents: total,
    paymentInfos: groups.size,
  };
}
