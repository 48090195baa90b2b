import fc from 'fast-check';
import { mod97 } from '../../spec/iso13616.js';
import { label, type Combination, type PaymentsClient } from '../areas/payments.js';
import { because, expect } from '../test.js';
import { isoDate } from '../values/dates.js';
import { getPath, type Json } from '../values/json.js';
import { controlsOnce, refusedWithout } from './judge.js';
import { brokenBody, type BrokenCase, type Breaker } from './payments-breaks.js';
import { seedArb } from './payments-cases.js';

/*
 * The rules of a payment body the length, required, amount and ISO date breakers leave unbroken,
 * each broken once in any field that carries it (every payment of a bulk) and judged by the
 * requirement the hand-written check of that rule uses: the creditor agent's BICFI, an IBAN's
 * check digits, a past execution date; and the rules of the reference facts no hand-written check
 * sends (an address's country, the periodic payment's frequency, executionRule and dayOfExecution
 * enumerations, an endDate before the startDate), each with a requirement of its own.
 */

/** A breaker whose refusal must carry a tppMessages code (its hand-written check's toBeTppError). */
export interface RuleBreaker extends Breaker {
  code?: string;
}

const at = (paths: string[], value: fc.Arbitrary<unknown>): fc.Arbitrary<BrokenCase> =>
  fc.record({ seed: seedArb, path: fc.constantFrom(...paths), value });

/** The creditor parts of a body: the body itself, or each payment of a bulk. */
const creditorParts = (body: Json): string[] =>
  Array.isArray(body.payments) ? body.payments.map((_, i) => `payments[${i}].`) : [''];

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('');
const DIGIT = '0123456789'.split('');
const word = (unit: string[], min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...unit), minLength: min, maxLength: max });

/** Values no BICFI is (`[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?`): a wrong length, lower case, a digit in the bank and country code, free words. */
export const notBicfi = fc.oneof(
  fc.constantFrom('NOT A BIC', 'cobadeffxxx', 'COBADEFF1', 'COBADE', '12BADEFFXXX', ''),
  // 9, 10 or 6, 7 characters: neither 8 nor 11.
  fc.oneof(word(UPPER, 9, 10), word(UPPER, 6, 7)),
  // A digit among the first six (the bank and country code are letters).
  fc
    .tuple(word(UPPER, 8, 8), fc.integer({ min: 0, max: 5 }), fc.constantFrom(...DIGIT))
    .map(([w, i, d]) => `${w.slice(0, i)}${d}${w.slice(i + 1)}`),
  // A valid one in lower case (any letters of it).
  fc.constantFrom('COBADEFFXXX', 'DEUTDEFF', 'NDEASESS').map((b) => b.toLowerCase()),
);

/** An IBAN with its two check digits changed to any other pair: it fails the mod 97-10 check. */
export const badCheckDigits = (iban: string) =>
  fc
    .integer({ min: 0, max: 99 })
    .map((n) => String(n).padStart(2, '0'))
    .filter((d) => d !== iban.slice(2, 4) && mod97(`${iban.slice(0, 2)}${d}${iban.slice(4)}`) !== 1)
    .map((d) => `${iban.slice(0, 2)}${d}${iban.slice(4)}`);

const FREQUENCIES = [
  'Daily',
  'Weekly',
  'EveryTwoWeeks',
  'Monthly',
  'EveryTwoMonths',
  'Quarterly',
  'SemiAnnual',
  'Annual',
];
const LETTERS = [...UPPER, ...'abcdefghijklmnopqrstuvwxyz'.split('')];

/** A value outside an enumeration of strings: another case of one of its values, or another word. */
const outside = (values: string[], others: string[]) =>
  fc
    .oneof(
      fc.constantFrom(...values).map((v) => v.toLowerCase()),
      fc.constantFrom(...values).map((v) => v.toUpperCase()),
      fc.constantFrom(...others),
      word(LETTERS, 1, 14),
    )
    .filter((v) => !values.includes(v));

/** A dayOfExecution outside "1" to "31" without a leading zero. */
const badDay = fc.oneof(
  fc.constantFrom('0', '00', '32', ' 1', '1 ', 'first', ''),
  fc.integer({ min: 1, max: 9 }).map((d) => `0${d}`),
  fc.integer({ min: 32, max: 99 }).map(String),
  fc.integer({ min: 1, max: 31 }).map((d) => `${d}.0`),
);

/** An address country that is no ISO 3166 alpha-2 code (or none, where an address is given). */
const badCountry = fc.oneof(
  fc.constantFrom('gb', 'GBR', 'G', 'United Kingdom', '', '12', undefined),
  word(UPPER, 3, 3),
  word('abcdefghijklmnopqrstuvwxyz'.split(''), 2, 2),
);
const ADDRESS = {
  street: 'Victoria Street',
  buildingNumber: '12',
  city: 'London',
  postalCode: 'SW1H 0ET',
  country: 'GB',
};

/** Every rule of this file a combination's body can break (`sample`: one body of it). */
export function ruleBreakers(sample: Json): RuleBreaker[] {
  const parts = creditorParts(sample);
  const ibans = ['debtorAccount.iban', ...parts.map((p) => `${p}creditorAccount.iban`)].filter(
    (p) => typeof getPath(sample, p) === 'string',
  );
  const out: RuleBreaker[] = [
    {
      requirement: 'payments.initiate.creditor-agent-bicfi',
      rule: 'creditorAgent a BICFI',
      cases: at(
        parts.map((p) => `${p}creditorAgent`),
        notBicfi,
      ),
    },
    {
      requirement: 'payments.initiate.address-country',
      rule: 'an address country of ISO 3166 alpha-2, required with an address',
      cases: at(
        parts.map((p) => `${p}creditorAddress`),
        badCountry.map((country) => {
          const { country: _valid, ...rest } = ADDRESS;
          return country === undefined ? rest : { ...rest, country };
        }),
      ),
    },
  ];
  if (ibans.length)
    out.push({
      requirement: 'payments.initiate.iban',
      rule: 'an IBAN passing its ISO 13616 check digits',
      cases: fc
        .constantFrom(...ibans)
        .chain((path) =>
          fc.record({ seed: seedArb, path: fc.constant(path), value: badCheckDigits(getPath(sample, path) as string) }),
        ),
    });
  if (getPath(sample, 'requestedExecutionDate') !== undefined)
    out.push({
      requirement: 'payments.execution-date.past',
      rule: 'a requestedExecutionDate not in the past',
      status: 400,
      code: 'EXECUTION_DATE_INVALID',
      cases: at(
        ['requestedExecutionDate'],
        fc.integer({ min: 1, max: 3650 }).map((d) => isoDate(-d)),
      ),
    });
  if (getPath(sample, 'startDate') !== undefined)
    out.push(
      {
        requirement: 'payments.periodic.frequency',
        rule: `frequency one of ${FREQUENCIES.join(', ')}`,
        cases: at(['frequency'], outside(FREQUENCIES, ['Yearly', 'Biweekly', 'Hourly', 'Monthly ', 'EveryThreeWeeks'])),
      },
      {
        requirement: 'payments.periodic.execution-rule',
        rule: 'executionRule following or preceding',
        cases: at(['executionRule'], outside(['following', 'preceding'], ['next', 'previous', 'modifiedFollowing'])),
      },
      {
        requirement: 'payments.periodic.day-of-execution',
        rule: 'dayOfExecution "1" to "31", no leading zero',
        cases: at(['dayOfExecution'], badDay),
      },
      {
        // The body's startDate is a business day at least 7 days ahead: an endDate 1 to 6 days ahead is before it, not past.
        requirement: 'payments.periodic.end-before-start',
        rule: 'an endDate not before the startDate',
        cases: at(
          ['endDate'],
          fc.integer({ min: 1, max: 6 }).map((d) => isoDate(d)),
        ),
      },
    );
  return out;
}

/** A broken case of a claimed combination, with its breaker. */
export interface RuleCase {
  c: Combination;
  breaker: RuleBreaker;
  b: BrokenCase;
}

/** The breaks of one requirement over the claimed combinations; undefined when none carries its rule. */
export function ruleCases(payments: PaymentsClient, claimed: Combination[], requirement: string) {
  const options = claimed.flatMap((c) =>
    ruleBreakers(payments.body(c))
      .filter((b) => b.requirement === requirement)
      .map((breaker) => breaker.cases.map((b): RuleCase => ({ c, breaker, b }))),
  );
  return options.length ? fc.oneof(...options) : undefined;
}

/**
 * A broken case judged as the hand-written check of its rule judges it: refused carrying no
 * paymentId (a 4xx, or the status its requirement names) and, where the requirement names a code,
 * the Berlin Group error with that code (toBeTppError). Its positive control, once per combination:
 * the product's valid body, accepted in the same test.
 */
export function ruleCheck(payments: PaymentsClient) {
  const control = controlsOnce();
  return async ({ c, breaker, b }: RuleCase) => {
    await control(label(c), () => payments.initiate(c, { body: payments.body(c) }));
    const res = await payments.initiate(c, { body: brokenBody(c, payments.profile, b) });
    const what = `initiate ${label(c)} with ${b.path} = ${JSON.stringify(b.value)} (the rule: ${breaker.rule})`;
    refusedWithout(res, what, 'paymentId', breaker.status);
    if (breaker.code) await expect(res, because(what)).toBeTppError(breaker.status ?? 400, breaker.code);
  };
}
