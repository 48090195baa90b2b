import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import type { Profile } from '../../harness/config/profile.js';
import { loadProfile } from '../../harness/config/profile.js';
import { loadCatalogue } from '../../harness/catalogue/catalogue.js';
import {
  DECLINE_JUDGEMENT,
  definitions,
  GENERATED_DIR,
  generatedValuePins,
  valueSpacePins,
} from '../../harness/catalogue/pins.js';
import {
  consentDeclines,
  directDebitDeclines,
  MAY_DECLINE_ENTRIES,
  paymentDeclines,
  type MayDecline,
} from '../../harness/areas/value-spaces.js';
import { COMBINATIONS, label, type Combination } from '../../harness/areas/payment-combinations.js';
import { directDebitBody, dutchCreditor } from '../../harness/areas/direct-debit.js';
import type { Json } from '../../harness/values/json.js';
import { isoDate } from '../../harness/values/dates.js';
import * as authorisationCases from '../../harness/properties/authorisations-cases.js';
import * as basketCases from '../../harness/properties/signing-baskets-cases.js';
import * as consentCases from '../../harness/properties/consents-cases.js';
import * as directDebitCases from '../../harness/properties/direct-debit-cases.js';
import * as headerCases from '../../harness/properties/headers-cases.js';
import * as paymentCases from '../../harness/properties/payments-cases.js';
import * as robustnessCases from '../../harness/properties/robustness-cases.js';

// The pin lint's third eye (harness/catalogue/pins.ts, generatedValuePins): a generated "valid"
// case is one every bank must accept, unless the property judging it declines a case in a
// may-decline space (harness/areas/value-spaces.ts) through the decline judgement. Each generator
// of valid cases is drawn from here, many times, under the narrowest profile (every may-decline
// option declined, the horizons at their defaults), and each case classified by value-spaces.ts;
// the lint then reports every property of a MUST that reaches a generator found outside the
// must-accept space without reaching the decline judgement.

/** Cases drawn from each generator (a fixed seed: the same draw every run). */
const DRAWS = 400;
const SEED = 48;

/** The narrowest profile: every space a bank may narrow, narrowed. */
const narrowest = (): Profile => {
  const p = structuredClone(loadProfile('reference'));
  p.consents.combinedSessions = 'may-decline';
  p.payments.nonBusinessDays = 'may-decline';
  p.payments.amountForms = 'two-decimals';
  p.payments.executionHorizonDays = 30;
  p.directDebit.leadTimeDays = 14;
  return p;
};

/** One drawing of a generator: the bodies its cases make, and the freedoms each falls in. */
type Drawing = (profile: Profile) => { arbitrary: fc.Arbitrary<Json>; declines: (body: Json) => MayDecline[] }[];

/** The payment combinations drawn from: every service × product. */
const combinations: readonly Combination[] = COMBINATIONS;

/** The creditor's own direct debit body, drawn from a seed (as the generated fixtures make it). */
const ownDirectDebit = directDebitCases.seeded(() => directDebitBody(dutchCreditor()) as unknown as Json);

/**
 * Every generator of valid cases (an export of a `*-cases.ts` module named `…Cases`) and how its
 * cases become bodies; undefined for one that draws no field a space of value-spaces.ts concerns.
 */
const DRAWINGS: Record<string, Drawing | { none: string }> = {
  validCases: (profile) =>
    combinations.map((c) => ({
      arbitrary: paymentCases
        .validCases(c, profile, paymentCases.seededBody(c, profile, 1))
        .map((v) => paymentCases.validBody(c, profile, v)),
      declines: (body) => paymentDeclines(profile, body),
    })),
  textCases: (profile) =>
    combinations.map((c) => ({
      arbitrary: paymentCases
        .textCases(paymentCases.textFields(c, profile, paymentCases.seededBody(c, profile, 1)))
        .map((tc) => paymentCases.textBody(c, profile, tc)),
      declines: (body) => paymentDeclines(profile, body),
    })),
  consentCases: (profile) =>
    [false, true].map((dedicated) => ({
      arbitrary: consentCases.consentCases({ dedicated }).map(consentCases.consentBody),
      declines: (body) => consentDeclines(profile, body),
    })),
  directDebitCases: (profile) =>
    [false, true].map((keepAll) => ({
      arbitrary: directDebitCases
        .directDebitCases({ keepAll })
        .map((v) => directDebitCases.directDebitCaseBody(ownDirectDebit, v)),
      declines: (body) => directDebitDeclines(profile, body),
    })),
  basketCases: { none: 'payment ids of payments the suite initiated: no field of a may-decline space' },
  startCases: { none: 'an authentication method the bank offers: no field of a may-decline space' },
};

/** The generators of valid cases the generated phase exports. */
const MODULES = {
  authorisationCases,
  basketCases,
  consentCases,
  directDebitCases,
  headerCases,
  paymentCases,
  robustnessCases,
};
const generatorNames = () =>
  Object.values(MODULES).flatMap((m) => Object.keys(m).filter((k) => /Cases$/.test(k) && !/^(every|broken)/.test(k)));

/** The first may-decline value each drawing finds, by generator. */
function drawOutside(drawings: Record<string, Drawing | { none: string }>, profile: Profile): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, drawing] of Object.entries(drawings)) {
    if (!(drawing instanceof Function)) continue;
    for (const { arbitrary, declines } of drawing(profile)) {
      for (const body of fc.sample(arbitrary, { numRuns: DRAWS, seed: SEED })) {
        const found = declines(body);
        if (found.length) {
          out.set(name, `${found.map((d) => d.id).join(', ')} (${found.map((d) => d.field).join('; ')})`);
          break;
        }
      }
      if (out.has(name)) break;
    }
  }
  return out;
}

test('every generator of valid cases of the generated phase is drawn by the lint, or said to draw no such field', () => {
  const cases = readdirSync(GENERATED_DIR).filter((f) => f.endsWith('-cases.ts'));
  expect(cases.length, 'the *-cases.ts modules this test imports').toBe(Object.keys(MODULES).length);
  expect(generatorNames().sort()).toEqual(Object.keys(DRAWINGS).sort());
  // The header generators (headers-cases.ts) draw headers: none of a space (X-AffiliatedASPSP-ID's).
  const headerSpaces = MAY_DECLINE_ENTRIES.filter((d) => /^X-[\w-]+/.test(d.field)).map(
    (d) => /^X-[\w-]+/.exec(d.field)![0],
  );
  expect(headerSpaces).toEqual(['X-AffiliatedASPSP-ID']);
  const headerSource = readFileSync(join(GENERATED_DIR, 'headers-cases.ts'), 'utf8');
  for (const h of headerSpaces) expect(headerSource, `headers-cases.ts draws ${h}`).not.toMatch(new RegExp(h, 'i'));
});

test('the pin lint: no property of a MUST draws a valid value outside the must-accept space without the decline judgement', () => {
  const outside = drawOutside(DRAWINGS, narrowest());
  // The lint sees something: the generators whose properties decline draw such values.
  expect([...outside.keys()].sort(), 'generators drawing may-decline values').toEqual(
    ['consentCases', 'directDebitCases', 'validCases'].sort(),
  );
  const findings = generatedValuePins(loadCatalogue(), outside).map((f) => `${f.id}: in ${f.file}: ${f.detail}`);
  expect(findings).toEqual([]);
  // Were the text cases to draw such a value, their property (no decline judgement) would be reported;
  // the valid cases' properties judge declines, and are not.
  const planted = new Map([
    ['textCases', 'a weekend date'],
    ['validCases', 'a weekend date'],
  ]);
  expect(generatedValuePins(loadCatalogue(), planted).map((f) => [f.id, f.detail])).toEqual([
    ['payments.text.character-set', 'textCases draws a weekend date'],
  ]);
});

test("the pin lint's value-space eye catches a planted generator: a weekend date drawn, judged without declines", () => {
  const profile = narrowest();
  const c = combinations.find((x) => label(x) === 'payments/sepa-credit-transfers')!;
  // The planted generator: the text cases' body, its execution date moved to a coming Saturday.
  let saturday = 1;
  while (new Date(`${isoDate(saturday)}T00:00:00Z`).getUTCDay() !== 6) saturday++;
  const planted: Drawing = (p) => [
    {
      arbitrary: paymentCases
        .textCases(paymentCases.textFields(c, p, paymentCases.seededBody(c, p, 1)))
        .map((tc) => ({ ...paymentCases.textBody(c, p, tc), requestedExecutionDate: isoDate(saturday) })),
      declines: (body) => paymentDeclines(p, body),
    },
  ];
  const outside = drawOutside({ weekendCases: planted }, profile);
  expect(outside.get('weekendCases')).toMatch(/payments\.non-business-day/);

  const dir = mkdtempSync(join(tmpdir(), 'value-pins-'));
  const tests = join(dir, 'tests', 'payments');
  const generated = join(dir, 'generated');
  mkdirSync(tests, { recursive: true });
  mkdirSync(generated);
  writeFileSync(
    join(generated, 'planted.ts'),
    [
      'export function weekendCases() { return fc.record({}); }',
      '// A judgement that declines: declinedOnce named only in this comment.',
      'export const plainAccepted = (payments) => async (v) => acceptedWith(await payments.initiate(v));',
      'export const decliningAccepted = (payments) => { const declined = declinedOnce(); return async (v) => declined(v); };',
    ].join('\n'),
  );
  const spec = (check: string) =>
    `test('t', req('payments.initiate.response'), async ({ payments }) => {\n  await runProperty({ arbitrary: weekendCases(), check: ${check}(payments) });\n});\n`;
  writeFileSync(join(tests, 'planted.spec.ts'), spec('plainAccepted'));
  const found = generatedValuePins(loadCatalogue(), outside, join(dir, 'tests'), generated, dir);
  expect(found.map((f) => [f.id, f.kind, f.file])).toEqual([
    ['payments.initiate.response', 'generated valid value', 'tests/payments/planted.spec.ts'],
  ]);
  expect(found[0].detail).toMatch(/^weekendCases draws payments\.non-business-day/);

  // The same property through the decline judgement is not reported; nor a stretch running no property.
  writeFileSync(join(tests, 'planted.spec.ts'), spec('decliningAccepted'));
  expect(generatedValuePins(loadCatalogue(), outside, join(dir, 'tests'), generated, dir)).toEqual([]);
  const defs = definitions(generated);
  expect(defs.get('decliningAccepted')).toContain(DECLINE_JUDGEMENT);
  expect(valueSpacePins("req('x'); weekendCases();", defs, outside)).toEqual([]);
});
