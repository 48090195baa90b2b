import fc from 'fast-check';
import { faker } from '@faker-js/faker/locale/en';
import type { SchemaId } from '../../schemas/index.js';
import type { Profile } from '../config/profile.js';
import { isoDate } from '../values/dates.js';
import { getPath, withPath, type Json } from '../values/json.js';
import { CHARACTER_SET } from '../values/text.js';
import { paymentBody } from '../areas/payment-bodies.js';
import type { Combination } from '../areas/payment-combinations.js';
import { fieldRules, isText, type FieldRule } from './schema-fields.js';

/*
 * Payment initiation bodies generated from the request schemas (schemas/payments, read by
 * schema-fields.ts) over the product's own test data (harness/areas/payment-bodies.ts, the body every
 * check sends): the accounts, the creditor's agent and giro, the currency stay the product's (the
 * bank's test data, which no schema describes); every other field is drawn within its rules.
 */

/** A text field with no maxLength in its schema gets at most this many characters. */
export const UNBOUNDED_TEXT = 35;

/** Berlin Group's limits of the address fields the schema leaves unbounded (as the direct debit address has them). */
const ADDRESS_LIMITS: Record<string, number> = { buildingNumber: 16, postalCode: 16 };
const limitOf = (r: FieldRule) =>
  r.maxLength ??
  (/creditorAddress\.[^.]+$/.test(r.path) ? ADDRESS_LIMITS[r.path.split('.').pop()!] : undefined) ??
  UNBOUNDED_TEXT;

const ALNUM = CHARACTER_SET.slice(0, 62).split('');
const PUNCTUATION = CHARACTER_SET.slice(62).split('');

/**
 * A character of the specification's set: punctuation about a quarter of the time (each of its nine
 * as often as two letters or digits together), shrinking towards "a".
 */
export const setCharacter = fc
  .integer({ min: 0, max: ALNUM.length + 2 * PUNCTUATION.length - 1 })
  .map((i) => (i < ALNUM.length ? ALNUM[i] : PUNCTUATION[(i - ALNUM.length) % PUNCTUATION.length]));
const plainCharacter = fc.constantFrom(...ALNUM);

/** A text of `min` to `max` characters of `unit`, any length in between as likely as the bounds. */
export const textOf = (min: number, max: number, unit: fc.Arbitrary<string> = setCharacter) =>
  fc.string({ unit, minLength: min, maxLength: max, size: 'max' });

/** The request schema of a service × product, as the body the product's data makes is shaped (giro: creditorGiro, unless the profile names the creditor by account). */
export function requestSchemaOf(c: Combination, profile: Profile): SchemaId {
  const kind = c.service === 'payments' ? 'single' : c.service === 'bulk-payments' ? 'bulk' : 'periodic';
  const giro = c.product === 'swedish-giro' && profile.payments?.giroCreditor !== 'creditorAccount';
  return `payments/${kind}-payment${giro ? '-giro' : ''}` as SchemaId;
}

/** Fields holding the bank's test data: accounts, agent, giro, references; their values stay the product's. */
const TEST_DATA =
  /(^|\.)(debtorAccount|creditorAccount|creditorAgent|creditorGiro|ocrRef|invoiceRef)(\.|$)|\.currency$/;

/** A rule's concrete paths in a body: "payments[].creditorName" is one path per element of the body's payments. */
function concrete(rule: FieldRule, body: Json): string[] {
  const [head, ...rest] = rule.path.split('[]');
  if (!rest.length) return [rule.path];
  const list = getPath(body, head);
  return Array.isArray(list) ? list.map((_, i) => `${head}[${i}]${rest.join('[]')}`) : [];
}

const parentOf = (path: string) => path.replace(/(\.[^.[\]]+|\[\d+\])$/, '');
const present = (body: Json, path: string) => getPath(body, path) !== undefined;

/** A text field of a body: its path and its length bounds. */
export interface TextField {
  path: string;
  min: number;
  max: number;
  /** The rule it comes from ("payments[].creditorName"). */
  rule: string;
}

/** The text fields of a combination's body: those the body carries, and an address's fields beside those it carries. */
export function textFields(c: Combination, profile: Profile, body: Json): TextField[] {
  return fieldRules(requestSchemaOf(c, profile))
    .filter((r) => isText(r) && !TEST_DATA.test(r.path))
    .flatMap((r) =>
      concrete(r, body)
        .filter((p) => present(body, p) || (/creditorAddress$/.test(parentOf(p)) && present(body, parentOf(p))))
        .map((p) => ({
          path: p,
          min: Math.max(1, r.minLength ?? 0),
          max: limitOf(r),
          rule: r.path,
        })),
    );
}

/** The product's body, its random parts (names, IBAN digits) drawn from `seed`, so that a case replays exactly. */
export function seededBody(c: Combination, profile: Profile, seed: number): Json {
  faker.seed(seed);
  try {
    return paymentBody(c, profile);
  } finally {
    faker.seed();
  }
}

/** The seed of a case's product data (faker's). */
export const seedArb = fc.integer({ min: 0, max: 2 ** 31 - 1 });

/** A case of text fields over the specification's character set: the fields' values, on the product's body. */
export interface TextCase {
  seed: number;
  texts: Record<string, string>;
}

/** Text cases of a combination: every text field of its body set, each within its length, over the character set. */
export function textCases(fields: TextField[]): fc.Arbitrary<TextCase> {
  return fc.record({
    seed: seedArb,
    texts: fc.record(Object.fromEntries(fields.map((f) => [f.path, textOf(f.min, f.max)]))),
  });
}

/** The body of a text case. */
export function textBody(c: Combination, profile: Profile, tc: TextCase): Json {
  let body = seededBody(c, profile, tc.seed);
  for (const [path, value] of Object.entries(tc.texts)) body = withPath(body, path, value);
  return body;
}

/** A valid case: the fields the schema leaves optional dropped or kept, enumerations, dates, amounts and texts drawn. */
export interface ValidCase {
  seed: number;
  /** How many payments a bulk carries (1 or 2: the product's two creditors). */
  elements: number;
  drop: string[];
  texts: Partial<Record<string, string>>;
  amounts: string[];
  enums: Record<string, unknown>;
  /** Days from today: requestedExecutionDate, startDate; endDate's days after startDate. */
  executionIn: number;
  startIn: number;
  endAfter: number;
}

/** An amount within the amount rule (reference-facts: `-?[0-9]{1,14}(\.[0-9]{1,3})?`): positive, whole or with cents, at most 2000. */
export const amountArb = fc.oneof(
  fc.integer({ min: 1, max: 2000 }).map(String),
  fc.integer({ min: 1, max: 200_000 }).map((cents) => (cents / 100).toFixed(2)),
);

const ENUM_FIELDS = /(^|\.)(frequency|executionRule|batchBookingPreferred)$/;
const MONTHLY = new Set(['Monthly', 'EveryTwoMonths', 'Quarterly', 'SemiAnnual', 'Annual']);

/** The optional fields of a body that a valid case may leave out (not test data, not the giro reference). */
export function droppable(c: Combination, profile: Profile, body: Json): string[] {
  return fieldRules(requestSchemaOf(c, profile))
    .filter((r) => !r.required && !TEST_DATA.test(r.path) && !r.path.includes('creditorAddress.'))
    .flatMap((r) => concrete(r, body))
    .filter((p) => present(body, p) && !p.startsWith('payments['));
}

/** Valid cases of a combination (`sample` is one body of it, for the shape). */
export function validCases(c: Combination, profile: Profile, sample: Json): fc.Arbitrary<ValidCase> {
  const rules = fieldRules(requestSchemaOf(c, profile));
  const enums = rules.filter((r) => ENUM_FIELDS.test(r.path) && present(sample, r.path));
  const amounts = Array.isArray(sample.payments) ? sample.payments.length : 1;
  const texts = textFields(c, profile, sample);
  return fc.record({
    seed: seedArb,
    elements: fc.integer({ min: 1, max: amounts }),
    drop: fc.subarray(droppable(c, profile, sample)),
    texts: fc.record(Object.fromEntries(texts.map((f) => [f.path, textOf(f.min, f.max, plainCharacter)])), {
      requiredKeys: [],
    }),
    amounts: fc.array(amountArb, { minLength: amounts, maxLength: amounts }),
    enums: fc.record(
      Object.fromEntries(
        enums.map((r) => [r.path, r.type === 'boolean' ? fc.boolean() : fc.constantFrom(...(r.enum ?? []))]),
      ),
    ),
    executionIn: fc.integer({ min: 1, max: 90 }),
    startIn: fc.integer({ min: 1, max: 60 }),
    endAfter: fc.integer({ min: 1, max: 730 }),
  });
}

/** The body of a valid case. */
export function validBody(c: Combination, profile: Profile, v: ValidCase): Json {
  let body = seededBody(c, profile, v.seed);
  if (Array.isArray(body.payments)) body = { ...body, payments: body.payments.slice(0, v.elements) };
  for (const [path, value] of Object.entries(v.texts))
    if (value !== undefined && present(body, parentOf(path))) body = withPath(body, path, value);
  for (const [path, value] of Object.entries(v.enums)) body = withPath(body, path, value);
  const amountPaths = Array.isArray(body.payments)
    ? body.payments.map((_, i) => `payments[${i}].instructedAmount.amount`)
    : ['instructedAmount.amount'];
  amountPaths.forEach((p, i) => (body = withPath(body, p, v.amounts[i])));
  if (present(body, 'requestedExecutionDate')) body = withPath(body, 'requestedExecutionDate', isoDate(v.executionIn));
  if (present(body, 'startDate')) {
    body = withPath(body, 'startDate', isoDate(v.startIn));
    if (present(body, 'endDate')) body = withPath(body, 'endDate', isoDate(v.startIn + v.endAfter));
    // dayOfExecution names a day of the month: kept (the start's day) for the monthly frequencies only.
    body = withPath(
      body,
      'dayOfExecution',
      MONTHLY.has(String(body.frequency)) ? String(Number(isoDate(v.startIn).slice(8, 10))) : undefined,
    );
  }
  for (const path of v.drop) body = withPath(body, path, undefined);
  return body;
}
