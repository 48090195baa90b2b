import fc from 'fast-check';
import type { Profile } from '../config/profile.js';
import { getPath, withPath, type Json } from '../values/json.js';
import { CHARACTER_SET } from '../values/text.js';
import { limitedFields, requiredFields } from '../areas/payment-bodies.js';
import type { Combination } from '../areas/payment-combinations.js';
import { seedArb, seededBody, textFields, textOf } from './payments-cases.js';

/*
 * Bodies that break exactly one rule, each rule with the requirement that judges it: a text over its
 * maxLength (the Limits table: payments.limits.*; an address's street, reference-facts), a required
 * field left out, an amount or a currency outside its pattern, a requestedExecutionDate that is no
 * ISO date. The broken field is any the body carries: every element of a bulk, not only the first.
 */

/** The fields the specification's Payment table marks required (single payments); the rest rest on reference-facts. */
const SPEC_REQUIRED = ['debtorAccount', 'instructedAmount', 'creditorAccount', 'creditorName'];

/** One way of breaking one rule: where, and the value put there (undefined: the field left out). */
export interface BrokenCase {
  seed: number;
  path: string;
  value: unknown;
}

/** The rules a combination's body can break, each with its requirement and the arbitrary of its breaks. */
export interface Breaker {
  requirement: string;
  /** The rule, as the report names it. */
  rule: string;
  /** The exact status the requirement asks for (a SHOULD naming one), else any 4xx. */
  status?: number;
  cases: fc.Arbitrary<BrokenCase>;
}

/** The requirement of an address's street limit (reference-facts: `street` at most 70). */
export const STREET_LIMIT = 'payments.limits.creditor-address-street';

const plain = fc.constantFrom(...CHARACTER_SET.slice(0, 62).split(''));
const lastName = (path: string) =>
  path
    .split('.')
    .pop()!
    .replace(/\[\d+\]$/, '');

/** Every element's copy of a first-element path ("payments[0].creditorName"), for the body's elements. */
function everyElement(path: string, body: Json): string[] {
  const m = /^payments\[0\]\.(.+)$/.exec(path);
  if (!m || !Array.isArray(body.payments)) return [path];
  return body.payments.map((_, i) => `payments[${i}].${m[1]}`);
}

const at = (paths: string[], value: fc.Arbitrary<unknown>): fc.Arbitrary<BrokenCase> =>
  fc.record({ seed: seedArb, path: fc.constantFrom(...paths), value });

/** The length limits of the Limits table (limitedFields, the table the hand-written checks use) and the street's. */
function limitBreakers(c: Combination, profile: Profile, body: Json): Breaker[] {
  const table = new Map(limitedFields(c).map((f) => [f.field, f.requirement]));
  const byRequirement = new Map<string, { paths: string[]; max: number }>();
  for (const f of textFields(c, profile, body)) {
    const name = lastName(f.path);
    const requirement = f.path.endsWith('creditorAddress.street') ? STREET_LIMIT : table.get(name);
    if (!requirement || f.max === undefined) continue;
    // The address's other fields have no limit of their own; the Limits table's fields only where the body carries them.
    if (requirement !== STREET_LIMIT && getPath(body, f.path) === undefined) continue;
    const entry = byRequirement.get(requirement) ?? { paths: [], max: f.max };
    entry.paths.push(f.path);
    byRequirement.set(requirement, entry);
  }
  return [...byRequirement].map(([requirement, { paths, max }]) => ({
    requirement,
    rule: `at most ${max} characters`,
    cases: at(paths, textOf(max + 1, max + 10, plain)),
  }));
}

/** The required fields (requiredFields, the hand-written checks' table), left out of any element. */
function requiredBreakers(c: Combination, profile: Profile, body: Json): Breaker[] {
  const spec = c.service === 'payments';
  const fields = requiredFields(c, profile);
  const ours = fields.filter((f) => spec && SPEC_REQUIRED.includes(f));
  const others = fields.filter((f) => !(spec && SPEC_REQUIRED.includes(f))).flatMap((f) => everyElement(f, body));
  return [
    ...(ours.length
      ? [
          {
            requirement: 'payments.initiate.required-fields',
            rule: 'required',
            cases: at(ours, fc.constant(undefined)),
          },
        ]
      : []),
    ...(others.length
      ? [
          {
            requirement: 'payments.initiate.required-fields-bulk-periodic',
            rule: 'required',
            cases: at(others, fc.constant(undefined)),
          },
        ]
      : []),
  ];
}

/** Amounts and currencies outside their patterns (reference-facts: Value formats), in any element. */
function amountBreaker(body: Json): Breaker {
  const amounts = Array.isArray(body.payments)
    ? body.payments.map((_, i) => `payments[${i}].instructedAmount`)
    : ['instructedAmount'];
  const badAmount = fc.oneof(
    fc.constantFrom('12,50', '1.2345', '123456789012345', '', '1e3', '+12', '12.', '.5', 'EUR 12'),
    fc.double({ min: 0.01, max: 9999, noNaN: true }),
    fc.integer({ min: 1, max: 9999 }),
  );
  const badCurrency = fc.oneof(
    fc.constantFrom('eur', 'EURO', 'E1R', '', 'EU'),
    fc.string({
      unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'.split('')),
      minLength: 3,
      maxLength: 3,
    }),
  );
  return {
    requirement: 'payments.amount.format',
    rule: 'amount -?[0-9]{1,14}(\\.[0-9]{1,3})?, currency [A-Z]{3}',
    status: 400,
    cases: fc.oneof(
      at(
        amounts.map((a) => `${a}.amount`),
        badAmount,
      ),
      at(
        amounts.map((a) => `${a}.currency`),
        badCurrency,
      ),
    ),
  };
}

/** A requestedExecutionDate that is no ISO date, where the body carries one. */
function dateBreaker(body: Json): Breaker[] {
  if (getPath(body, 'requestedExecutionDate') === undefined) return [];
  const notIso = fc.oneof(
    fc.constantFrom('21.11.2099', '2099-13-01', '2099-02-30', '2099/01/15', '2099-1-5', 'tomorrow', ''),
    fc
      .record({
        y: fc.integer({ min: 2100, max: 2199 }),
        m: fc.integer({ min: 1, max: 12 }),
        d: fc.integer({ min: 1, max: 28 }),
      })
      .map(({ y, m, d }) => `${String(d).padStart(2, '0')}-${String(m).padStart(2, '0')}-${y}`),
  );
  return [
    {
      requirement: 'payments.execution-date.format',
      rule: 'ISO date',
      cases: at(['requestedExecutionDate'], notIso),
    },
  ];
}

/** Every rule a combination's body can break, by requirement (`sample`: one body of it, for the shape). */
export function breakers(c: Combination, profile: Profile, sample: Json): Breaker[] {
  return [
    ...limitBreakers(c, profile, sample),
    ...requiredBreakers(c, profile, sample),
    amountBreaker(sample),
    ...dateBreaker(sample),
  ];
}

/** The body of a broken case. */
export function brokenBody(c: Combination, profile: Profile, b: BrokenCase): Json {
  return withPath(seededBody(c, profile, b.seed), b.path, b.value);
}
