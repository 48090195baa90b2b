import { faker } from '@faker-js/faker/locale/en';
import fc from 'fast-check';
import { isoDate } from '../values/dates.js';
import { withPath, type Json } from '../values/json.js';
import { amountArb, seedArb, textOf } from './payments-cases.js';
import { fieldRules, isText, type FieldRule } from './schema-fields.js';

/*
 * Create SEPA direct debit bodies generated from their request schema
 * (schemas/direct-debit/payment-request.ts, read by schema-fields.ts) over the creditor's own data
 * (the profile's creditor, a Dutch debtor, a mandate: directDebitBody, the body every check sends):
 * valid ones (every text field at any length within its limit, drawn from the specification's
 * character set, optional fields kept or left out, an amount, an execution date and a mandate
 * signed in the past), and ones that break exactly one rule.
 */

const SCHEMA = 'direct-debit/payment-request' as const;

/** The fields whose value the bank checks in code (a BIC, a creditor id, a code, a date): the creditor's data. */
const CHECKED_IN_CODE =
  /^(creditorId|creditorAgent|debtorAgent|localInstrumentCode|sequenceType|requestedExecutionDate|mandateRelatedInformation\.dateOfSignature)$/;

/** The text fields drawn: strings with no pattern, format or enumeration, but those checked in code. */
export const textRules = (): FieldRule[] =>
  fieldRules(SCHEMA).filter((r) => isText(r) && !CHECKED_IN_CODE.test(r.path) && !r.path.includes('['));

/** The optional fields a valid case may leave out (not under an array). */
const optionalPaths = (): string[] =>
  fieldRules(SCHEMA)
    .filter((r) => !r.required && !r.path.includes('['))
    .map((r) => r.path);

const LINE = () => fieldRules(SCHEMA).find((r) => r.path === 'remittanceInformationUnstructuredArray[]');

/** A valid case. */
export interface DirectDebitCase {
  /** The seed of the creditor's and debtor's data (faker's), so that a case replays exactly. */
  seed: number;
  texts: Record<string, string>;
  lines: string[];
  leftOut: string[];
  amount: string;
  /** requestedExecutionDate: days from today; dateOfSignature: days ago. */
  executionIn: number;
  signedAgo: number;
}

/** An identifier as the EPC rules write one: no "/" first or last, no "//". */
const epcIdentifier = (t: string) => !t.startsWith('/') && !t.endsWith('/') && !t.includes('//');

/** The most remittance lines a generated body holds (the schema sets no maximum; pain.008's Ustrd is unbounded). */
const MOST_LINES = 3;

/**
 * Valid cases within every field rule of the schema; with `keepAll`, no optional field is left out
 * (a read-back has then every field to hold against what was sent).
 */
export function directDebitCases({ keepAll = false } = {}): fc.Arbitrary<DirectDebitCase> {
  const line = LINE();
  return fc.record({
    seed: seedArb,
    texts: fc.record(
      Object.fromEntries(
        textRules().map((r) => {
          const text = textOf(Math.max(1, r.minLength ?? 0), r.maxLength ?? 35);
          // EPC: an identifier neither starts nor ends with "/" and holds no "//".
          return [r.path, r.path.endsWith('mandateId') ? text.filter(epcIdentifier) : text];
        }),
      ),
    ),
    // EPC: the unstructured remittance information is 140 characters in all, however many lines carry it.
    lines: fc
      .integer({ min: 1, max: MOST_LINES })
      .chain((n) => fc.array(textOf(1, Math.floor((line?.maxLength ?? 140) / n)), { minLength: n, maxLength: n })),
    leftOut: keepAll ? fc.constant([]) : fc.subarray(optionalPaths()),
    amount: amountArb,
    executionIn: fc.integer({ min: 2, max: 60 }),
    signedAgo: fc.integer({ min: 0, max: 700 }),
  });
}

/** The body of a valid case over the creditor's own body (`base`, drawn from the case's seed). */
export function directDebitCaseBody(base: (seed: number) => Json, v: DirectDebitCase): Json {
  let body = base(v.seed);
  body.requestedExecutionDate = isoDate(v.executionIn);
  body.instructedAmount = { currency: 'EUR', amount: v.amount };
  body.remittanceInformationUnstructuredArray = v.lines;
  body.endToEndIdentification = `E2E${v.seed}`.slice(0, 35);
  (body.mandateRelatedInformation as Json).dateOfSignature = isoDate(-v.signedAgo);
  for (const [path, text] of Object.entries(v.texts)) if (parentOf(body, path)) body = withPath(body, path, text);
  for (const path of v.leftOut) if (parentOf(body, path)) body = withPath(body, path, undefined);
  return body;
}

const parentOf = (body: Json, path: string): boolean => {
  const parts = path.split('.');
  let o: unknown = body;
  for (const k of parts.slice(0, -1)) o = (o as Json | undefined)?.[k];
  return typeof o === 'object' && o !== null;
};

/** The creditor's own body drawn from a seed (faker's), as the hand-written checks send it. */
export const seeded =
  (make: () => Json) =>
  (seed: number): Json => {
    faker.seed(seed);
    try {
      return make();
    } finally {
      faker.seed();
    }
  };

/** One rule broken: where, and the value put there (undefined: the field left out). */
export interface BrokenDirectDebit {
  seed: number;
  path: string;
  value: unknown;
}

// Never ISO 8601's basic form (20991231): an ISO date by the words, which a bank may take.
export const NOT_ISO_DATES = ['31.12.2099', '2099/12/31', '2099-13-01', '12-31-2099', 'tomorrow'];

/** Values that break the rule a requirement judges, by where they go. */
function breaksOf(requirement: string): fc.Arbitrary<{ path: string; value: unknown }> | undefined {
  const rules = fieldRules(SCHEMA);
  const leftOut = (paths: string[]) => fc.constantFrom(...paths).map((path) => ({ path, value: undefined }));
  const currency = rules.find((r) => r.path === 'instructedAmount.currency');
  switch (requirement) {
    case 'direct-debit.create.required-fields':
      return leftOut(
        rules.filter((r) => r.required && !r.path.includes('.') && !r.path.includes('[')).map((r) => r.path),
      );
    case 'direct-debit.create.mandate':
      return leftOut(
        rules.filter((r) => r.required && r.path.startsWith('mandateRelatedInformation.')).map((r) => r.path),
      );
    case 'direct-debit.create.currency-eur':
      // Any currency of the amount's pattern but EUR.
      return fc
        .stringMatching(new RegExp(currency?.pattern ?? '^[A-Z]{3}$'))
        .filter((c) => c !== 'EUR')
        .map((value) => ({ path: 'instructedAmount.currency', value }));
    case 'direct-debit.create.local-instrument-core':
      return (
        fc
          // Never CORE in another case ("core"): a bank may read the code case-insensitively.
          .oneof(fc.constantFrom('B2B', 'COR1'), fc.stringMatching(/^[A-Z0-9]{2,4}$/))
          .filter((c) => c.toUpperCase() !== 'CORE')
          .map((value) => ({ path: 'localInstrumentCode', value }))
      );
    case 'direct-debit.create.dates-iso':
      return fc.record({
        path: fc.constantFrom('requestedExecutionDate', 'mandateRelatedInformation.dateOfSignature'),
        value: fc.constantFrom(...NOT_ISO_DATES),
      });
    case 'direct-debit.create.sequence-type':
      return fc
        .oneof(fc.constantFrom('ONCE', 'rcur', 'First'), fc.stringMatching(/^[A-Z]{4}$/))
        .filter((s) => !['FRST', 'RCUR', 'OOFF', 'FNAL'].includes(s))
        .map((value) => ({ path: 'sequenceType', value }));
    default:
      return undefined;
  }
}

/** The breaks of each rule, by the requirement that judges it, over the creditor's data of a seed. */
export function directDebitBreaks(requirement: string): fc.Arbitrary<BrokenDirectDebit> | undefined {
  const breaks = breaksOf(requirement);
  return breaks && fc.record({ seed: seedArb, b: breaks }).map(({ seed, b }) => ({ seed, ...b }));
}

/** The body of a broken case: the creditor's valid body with the one rule broken. */
export const brokenDirectDebitBody = (base: (seed: number) => Json, b: BrokenDirectDebit): Json =>
  withPath(base(b.seed), b.path, b.value);
