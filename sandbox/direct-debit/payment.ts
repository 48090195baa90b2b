import { isValidBIC } from 'ibantools';
import { isIso13616Iban } from '../../spec/iso13616.js';
import { creditorIdProblem } from './creditor-id.js';

/** Postal address as the specification's example gives it (the field table also allows a string). */
export interface Address {
  street?: string;
  buildingNumber?: string;
  city?: string;
  postalCode?: string;
  country: string;
}

/** The JSON body of create SEPA direct debit payment (specification: SEPA direct debit payment). */
export interface DirectDebitRequest {
  instructedAmount: { currency: string; amount: string };
  creditorAccount: { iban: string; currency?: string };
  creditorName: string;
  creditorId: string;
  creditorAddress?: Address;
  creditorAgent: string;
  creditorAgentName?: string;
  debtorAccount: { iban: string; currency?: string };
  debtorName: string;
  debtorAgent?: string;
  debtorAgentName?: string;
  debtorAddress?: Address | string;
  localInstrumentCode: string;
  sequenceType: string;
  mandateRelatedInformation: { mandateId: string; dateOfSignature: string };
  requestedExecutionDate: string;
  remittanceInformationUnstructuredArray?: string[];
  endToEndIdentification?: string;
}

export type DirectDebitStatus = 'RCVD' | 'ACCP' | 'RJCT';

/** A direct debit payment as the sandbox keeps it. */
export interface DirectDebitPayment {
  paymentId: string;
  clientId: string;
  psuId: string;
  request: DirectDebitRequest;
  transactionStatus: DirectDebitStatus;
  /** The file that carried it, once confirmed. */
  fileReference?: string;
  createdAt: number;
}

/** The ISO 20022 sequence types (SequenceType1Code of pain.008.001.02). */
export const SEQUENCE_TYPES = ['FRST', 'RCUR', 'OOFF', 'FNAL'] as const;

/** A business rule on a direct debit body: the problem (text and field path) or undefined. */
export interface DirectDebitCheck {
  name: string;
  run(p: DirectDebitRequest, today: string): { text: string; path: string } | undefined;
}

/** Upper case only, as the XSD's BICIdentifier (ibantools alone accepts lower case). */
const BIC = /^[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isIsoDate = (s: string) =>
  DATE.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);
const problem = (path: string, text: string) => ({ path, text: `${path}: ${text}` });

/**
 * The rules of the Limits table and the pain.008 needs, each named so that a fault can take one
 * out. The JSON Schema (direct-debit/payment-request) has already checked presence and types.
 */
export const DIRECT_DEBIT_CHECKS: DirectDebitCheck[] = [
  {
    name: 'currency',
    run: (p) =>
      p.instructedAmount.currency !== 'EUR'
        ? problem(
            'instructedAmount.currency',
            `only EUR collections are supported, got "${p.instructedAmount.currency}"`,
          )
        : ['creditorAccount', 'debtorAccount']
            .map((k) => [k, (p as unknown as Record<string, { currency?: string }>)[k].currency] as const)
            .filter(([, c]) => c !== undefined && c !== 'EUR')
            .map(([k, c]) => problem(`${k}.currency`, `only EUR accounts are supported, got "${c}"`))[0],
  },
  {
    name: 'amount',
    run: (p) =>
      !/^[0-9]{1,9}(\.[0-9]{1,2})?$/.test(p.instructedAmount.amount) || Number(p.instructedAmount.amount) <= 0
        ? problem(
            'instructedAmount.amount',
            `must be a positive EUR amount with at most 2 decimals and at most 999999999.99, got "${p.instructedAmount.amount}"`,
          )
        : undefined,
  },
  {
    name: 'local-instrument',
    run: (p) =>
      p.localInstrumentCode !== 'CORE'
        ? problem('localInstrumentCode', `only CORE is supported, got "${p.localInstrumentCode}"`)
        : undefined,
  },
  {
    name: 'iban',
    run: (p) =>
      (['creditorAccount', 'debtorAccount'] as const)
        .filter((k) => !isIso13616Iban(p[k].iban))
        .map((k) => problem(`${k}.iban`, `"${p[k].iban}" is not a valid IBAN (ISO 13616 check digits)`))[0],
  },
  {
    name: 'debtor-country',
    run: (p) =>
      !p.debtorAccount.iban.startsWith('NL')
        ? problem(
            'debtorAccount.iban',
            `collections are made from bank accounts in the Netherlands only; the IBAN is from ${p.debtorAccount.iban.slice(0, 2)}`,
          )
        : undefined,
  },
  {
    name: 'bic',
    run: (p) =>
      (['creditorAgent', 'debtorAgent'] as const)
        .filter((k) => p[k] !== undefined && !(BIC.test(p[k]!) && isValidBIC(p[k]!)))
        .map((k) => problem(k, `"${p[k]}" is not a valid BIC`))[0],
  },
  {
    name: 'creditor-id',
    run: (p) => {
      const why = creditorIdProblem(p.creditorId);
      return why ? problem('creditorId', `the SEPA creditor identifier "${p.creditorId}" ${why}`) : undefined;
    },
  },
  {
    name: 'sequence-type',
    run: (p) =>
      !(SEQUENCE_TYPES as readonly string[]).includes(p.sequenceType)
        ? problem('sequenceType', `must be one of ${SEQUENCE_TYPES.join(', ')}, got "${p.sequenceType}"`)
        : undefined,
  },
  {
    name: 'dates',
    run: (p, today) => {
      if (!isIsoDate(p.requestedExecutionDate))
        return problem(
          'requestedExecutionDate',
          `must be an ISO 8601 date (YYYY-MM-DD), got "${p.requestedExecutionDate}"`,
        );
      const signed = p.mandateRelatedInformation.dateOfSignature;
      if (!isIsoDate(signed))
        return problem(
          'mandateRelatedInformation.dateOfSignature',
          `must be an ISO 8601 date (YYYY-MM-DD), got "${signed}"`,
        );
      if (signed > today)
        return problem(
          'mandateRelatedInformation.dateOfSignature',
          `a mandate cannot be signed in the future (${signed})`,
        );
      return undefined;
    },
  },
];
