import fc from 'fast-check';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { loadProfile } from '../../harness/config/profile.js';
import { COMBINATIONS } from '../../harness/areas/payment-combinations.js';
import { paymentBody } from '../../harness/areas/payment-bodies.js';
import { fieldRules } from '../../harness/properties/schema-fields.js';
import {
  requestSchemaOf,
  textBody,
  textCases,
  textFields,
  validBody,
  validCases,
} from '../../harness/properties/payments-cases.js';
import { breakers, brokenBody } from '../../harness/properties/payments-breaks.js';
import { forbiddenMove } from '../../harness/properties/payments-walk.js';
import { forbiddenConsentMove } from '../../harness/properties/consents-walk.js';
import {
  cancellationWalkSteps,
  type CancellationWalkModel,
} from '../../harness/properties/payments-cancellation-walk.js';
import { refusedPlainly } from '../../harness/properties/walk.js';
import type { ApiResponse } from '../../harness/http/response.js';
import {
  brokenConsentBody,
  consentBody,
  consentBreaks,
  consentCases,
} from '../../harness/properties/consents-cases.js';
import { propertySeed } from '../../harness/properties/settings.js';
import { schemaRegistry } from '../../harness/values/schemas.js';
import { generatedOptionsOf } from '../../scripts/generated-options.mjs';
import { ENV } from '../../harness/config/env-names.mjs';
import { directDebitBody, dutchCreditor } from '../../harness/areas/direct-debit.js';
import {
  brokenDirectDebitBody,
  directDebitBreaks,
  directDebitCaseBody,
  directDebitCases,
  seeded,
  type BrokenDirectDebit,
  type DirectDebitCase,
} from '../../harness/properties/direct-debit-cases.js';
import {
  basketBreaks,
  brokenBasketBody,
  everyUnknownPaymentCase,
  type BrokenBasket,
} from '../../harness/properties/signing-baskets-cases.js';
import type { Json } from '../../harness/values/json.js';
import { isIso13616Iban } from '../../spec/iso13616.js';

// The generated phase's parts that need no target: the deriver, the generators against the very
// schemas they come from, the walk's model, the seeds and the runner's options.

const profile = loadProfile('reference');
const sample = (gen: fc.Arbitrary<unknown>, seed: number, n: number) => fc.sample(gen, { seed, numRuns: n });

test('the deriver reads the field rules of a request schema through its $refs and allOf', () => {
  const rules = new Map(fieldRules('payments/bulk-payment').map((r) => [r.path, r]));
  expect(rules.get('payments[].creditorName')).toMatchObject({ type: 'string', maxLength: 70, required: true });
  expect(rules.get('payments[].creditorAddress.street')).toMatchObject({ maxLength: 70, required: false });
  expect(rules.get('payments[].creditorAddress.country')).toMatchObject({ pattern: '^[A-Z]{2}$', required: true });
  expect(rules.get('debtorAccount')).toMatchObject({ type: 'object', required: true });
  expect(fieldRules('payments/periodic-payment').find((r) => r.path === 'frequency')?.enum).toContain('Monthly');
});

test('every generated valid body and text body of every service and product passes its request schema', () => {
  for (const c of COMBINATIONS) {
    const schema = requestSchemaOf(c, profile);
    const base = paymentBody(c, profile);
    for (const v of sample(validCases(c, profile, base), 1, 12) as Parameters<typeof validBody>[2][]) {
      const body = validBody(c, profile, v);
      expect(schemaRegistry().check(schema, body), `${c.service}/${c.product}: ${JSON.stringify(body)}`).toEqual([]);
    }
    const fields = textFields(c, profile, base);
    expect(fields.length, `${c.service}/${c.product}: text fields`).toBeGreaterThan(2);
    for (const tc of sample(textCases(fields), 2, 12) as Parameters<typeof textBody>[2][]) {
      const body = textBody(c, profile, tc);
      expect(schemaRegistry().check(schema, body)).toEqual([]);
      for (const [path, value] of Object.entries(tc.texts)) expect(value, path).toMatch(/^[a-zA-Z0-9/\-?:().,'+]+$/);
    }
  }
});

test('a body of the same seed is the same body (a case replays exactly)', () => {
  const c = COMBINATIONS[0];
  const [v] = sample(validCases(c, profile, paymentBody(c, profile)), 7, 1) as Parameters<typeof validBody>[2][];
  expect(validBody(c, profile, v)).toEqual(validBody(c, profile, v));
});

test('every broken body breaks its request schema (the rule it names)', () => {
  for (const c of COMBINATIONS) {
    const schema = requestSchemaOf(c, profile);
    for (const breaker of breakers(c, profile, paymentBody(c, profile))) {
      for (const b of sample(breaker.cases, 3, 15) as Parameters<typeof brokenBody>[2][]) {
        const body = brokenBody(c, profile, b);
        expect(
          schemaRegistry().check(schema, body).length,
          `${c.service}/${c.product} ${breaker.requirement}: ${b.path} = ${JSON.stringify(b.value)}`,
        ).toBeGreaterThan(0);
      }
    }
  }
});

test('the walk model: nothing moves back, a final status stays, an unknown one is refused', () => {
  expect(forbiddenMove(undefined, 'RCVD')).toBeUndefined();
  expect(forbiddenMove('RCVD', 'ACTC')).toBeUndefined();
  expect(forbiddenMove('ACTC', 'ACSC')).toBeUndefined();
  expect(forbiddenMove('ACTC', 'CANC')).toBeUndefined();
  expect(forbiddenMove('ACTC', 'RCVD')).toMatch(/moved back from ACTC to RCVD/);
  expect(forbiddenMove('ACSC', 'CANC')).toMatch(/ACSC is final/);
  expect(forbiddenMove('RJCT', 'RCVD')).toMatch(/RJCT is final/);
  expect(forbiddenMove('RCVD', 'DONE')).toMatch(/no transactionStatus/);
});

test("the consent walk's model: received, then valid; the ends final; a deleted consent never revives", () => {
  expect(forbiddenConsentMove(undefined, 'received')).toBeUndefined();
  expect(forbiddenConsentMove('received', 'valid')).toBeUndefined();
  expect(forbiddenConsentMove('received', 'rejected')).toBeUndefined();
  expect(forbiddenConsentMove('valid', 'terminatedByTpp')).toBeUndefined();
  expect(forbiddenConsentMove('valid', 'received')).toMatch(/moved back from valid to received/);
  expect(forbiddenConsentMove('terminatedByTpp', 'received')).toMatch(/terminatedByTpp is final/);
  expect(forbiddenConsentMove('rejected', 'valid')).toMatch(/rejected is final/);
  expect(forbiddenConsentMove('received', 'deleted')).toMatch(/no consentStatus/);
});

test("the cancellation walk's model: the cancellation authorised once, another refused once it finalised or the payment is final", () => {
  const model = (o: Partial<CancellationWalkModel> = {}): CancellationWalkModel => ({
    last: 'RCVD',
    authorisable: true,
    created: new Map(),
    scaEnded: false,
    scaFinalised: false,
    corporate: false,
    steps: ['initiate', 'cancel'],
    ...o,
  });
  /** The names of the steps the model allows. */
  const allowed = (m: CancellationWalkModel, authorisations = true) => [
    ...new Set(
      cancellationWalkSteps(authorisations)
        .map((a) => fc.sample(a, 1)[0])
        .filter((c) => c.check(m))
        .map(String),
    ),
  ];
  const another = /^create another cancellation authorisation \(forbidden/;
  // Cancelled, awaiting its authorisation: authorise it, cancel again (the tables are silent); nothing forbidden yet.
  const waiting = allowed(model());
  expect(waiting).toEqual(['read status', 'read payment', 'authorise the cancellation', 'cancel again']);
  // A product cancelled at once (not authorisable) and final: another authorisation and a cancel are forbidden steps.
  const cancelled = allowed(model({ authorisable: false, last: 'CANC' }));
  expect(cancelled).toContain('cancel again (forbidden: final)');
  expect(cancelled.some((n) => another.test(n))).toBe(true);
  expect(cancelled).not.toContain('authorise the cancellation');
  // Its SCA finalised (the payment not yet CANC): another is forbidden, the SCA status and the list are read.
  const ended = new Map([['c1', 'finalised']]);
  const finalised = allowed(model({ last: 'ACTC', scaEnded: true, scaFinalised: true, created: ended }));
  expect(finalised.some((n) => another.test(n))).toBe(true);
  expect(finalised).toEqual(
    expect.arrayContaining(['read the cancellation SCA status', 'list the cancellation authorisations']),
  );
  expect(finalised).not.toContain('authorise the cancellation');
  // In a corporate context a finalised SCA may be one signer's of several: another is forbidden only once final.
  const signer = allowed(model({ last: 'ACTC', scaEnded: true, scaFinalised: true, created: ended, corporate: true }));
  expect(signer.some((n) => another.test(n))).toBe(false);
  // Its SCA failed: not authorised again by the walk, and another is no forbidden step (the reference facts name "finalised").
  const failed = allowed(model({ last: 'ACTC', scaEnded: true, created: new Map([['c1', 'failed']]) }));
  expect(failed.some((n) => another.test(n) || n === 'authorise the cancellation')).toBe(false);
  // A profile without cancellation authorisations: no step creates one.
  expect(allowed(model({ authorisable: false, last: 'CANC' }), false)).toEqual([
    'read status',
    'read payment',
    'cancel again (forbidden: final)',
  ]);
});

test('a plain refusal is a 4xx whose body carries no id as a member (a tppMessage path may name one)', () => {
  const res = (status: number, body: unknown) => ({ status, body }) as ApiResponse;
  const tpp = { tppMessages: [{ code: 'CONSENT_INVALID', path: 'consentId' }] };
  expect(refusedPlainly(res(401, tpp), ['consentId'])).toBe(true);
  expect(refusedPlainly(res(409, { consentId: 'c1' }), ['consentId'])).toBe(false);
  expect(refusedPlainly(res(201, {}), ['consentId'])).toBe(false);
  expect(refusedPlainly(res(500, {}), ['consentId'])).toBe(false);
});

test("a property's seed follows the run's seed and its title", () => {
  expect(propertySeed('a', 1)).toBe(propertySeed('a', 1));
  expect(propertySeed('a', 1)).not.toBe(propertySeed('a', 2));
  expect(propertySeed('a', 1)).not.toBe(propertySeed('b', 1));
});

test('run --seed and --generated become the run settings; a bad value is a configuration error', () => {
  const none = { PATH: '' };
  const ok = generatedOptionsOf(['--seed', '42', '--generated=nightly', '--workers=2'], none, '/nonexistent');
  expect(ok).toMatchObject({
    args: ['--workers=2'],
    seed: 42,
    env: { [ENV.generatedSeed]: '42', [ENV.generated]: 'nightly' },
  });
  const drawn = generatedOptionsOf([], none, '/nonexistent');
  expect('seed' in drawn && Number.isInteger(drawn.seed)).toBe(true);
  expect(generatedOptionsOf(['--generated', 'deep'], none, '/nonexistent').error).toMatch(/not a depth/);
  expect(generatedOptionsOf(['--seed', 'x'], none, '/nonexistent').error).toMatch(/not a seed/);
  expect(generatedOptionsOf(['--seed'], none, '/nonexistent').error).toMatch(/a value is needed/);
});

test('every generated consent body passes its request schema, and every broken one breaks it', () => {
  for (const v of sample(consentCases(), 4, 40) as Parameters<typeof consentBody>[0][])
    expect(schemaRegistry().check('consents/consent-request', consentBody(v))).toEqual([]);
  for (const requirement of [
    'consents.create.required-fields',
    'consents.create.field-types',
    'consents.limits.frequency-min',
  ]) {
    for (const b of sample(consentBreaks(requirement)!, 5, 20) as Parameters<typeof brokenConsentBody>[0][])
      expect(
        schemaRegistry().check('consents/consent-request', brokenConsentBody(b)).length,
        `${requirement}: ${b.path} = ${JSON.stringify(b.value)}`,
      ).toBeGreaterThan(0);
  }
});

test('a dedicated generated consent names one to four valid references per list (IBANs by ISO 13616), and passes its schema', () => {
  const cases = sample(consentCases({ dedicated: true }), 11, 60) as Parameters<typeof consentBody>[0][];
  const dedicated = cases.filter((v) => v.access);
  expect(dedicated.length, 'most cases are dedicated').toBeGreaterThan(cases.length / 2);
  expect(
    cases.some((v) => !v.access),
    'some are bank-offered',
  ).toBe(true);
  for (const v of cases) expect(schemaRegistry().check('consents/consent-request', consentBody(v))).toEqual([]);
  for (const { access } of dedicated)
    for (const list of [access!.balances, access!.transactions]) {
      expect(list.length).toBeGreaterThanOrEqual(1);
      expect(list.length).toBeLessThanOrEqual(4);
      for (const ref of list)
        if (ref.iban) expect(isIso13616Iban(ref.iban), ref.iban).toBe(true);
        else expect(ref.maskedPan).toMatch(/^\d{6}x{6}\d{4}$/);
    }
  expect(
    sample(consentCases(), 12, 40).every((v) => !(v as { access?: unknown }).access),
    'the acceptance property asks for the accounts the bank offers',
  ).toBe(true);
});

test('every generated direct debit body passes its request schema; a field left out breaks it', () => {
  const own = seeded(() => directDebitBody(dutchCreditor()) as unknown as Json);
  expect(own(7), 'the same seed, the same body').toEqual(own(7));
  const rules = new Map(fieldRules('direct-debit/payment-request').map((r) => [r.path, r]));
  // The address's oneOf is read by its object branch.
  expect(rules.get('debtorAddress.city')).toMatchObject({ maxLength: 35, required: false });
  for (const v of sample(directDebitCases(), 4, 40) as DirectDebitCase[])
    expect(schemaRegistry().check('direct-debit/payment-request', directDebitCaseBody(own, v))).toEqual([]);
  for (const requirement of ['direct-debit.create.required-fields', 'direct-debit.create.mandate'])
    for (const b of sample(directDebitBreaks(requirement)!, 5, 20) as BrokenDirectDebit[])
      expect(
        schemaRegistry().check('direct-debit/payment-request', brokenDirectDebitBody(own, b)).length,
        `${requirement}: ${b.path} left out`,
      ).toBeGreaterThan(0);
  for (const b of sample(directDebitBreaks('direct-debit.create.currency-eur')!, 6, 20) as BrokenDirectDebit[])
    expect(b.value).toMatch(/^(?!EUR$)[A-Z]{3}$/);
});

test('a generated basket without payments breaks its request schema; an unknown payment goes anywhere among known ones', () => {
  for (const b of sample(basketBreaks('signing-baskets.create.empty')!, 3, 10) as BrokenBasket[])
    expect(
      schemaRegistry().check('signing-baskets/basket-request', brokenBasketBody(b, ['p1'])).length,
    ).toBeGreaterThan(0);
  const known = ['p1', 'p2'];
  for (const b of sample(basketBreaks('signing-baskets.create.unknown-payment')!, 3, 20) as BrokenBasket[]) {
    const ids = brokenBasketBody(b, known.slice(0, b.payments)).paymentIds as string[];
    expect(ids).toHaveLength(b.payments + 1);
    expect(ids.filter((id) => !known.includes(id))).toHaveLength(1);
    expect(ids.indexOf(ids.find((id) => !known.includes(id))!)).toBe(b.at);
  }
  // The cases tried first: the whole space, each one a case the generator draws.
  const every = everyUnknownPaymentCase();
  expect(every.map((b) => `${b.payments}@${b.at}`)).toEqual(['0@0', '1@0', '1@1', '2@0', '2@1', '2@2']);
});

test("generated bodies keep to what every bank must accept: Berlin Group's address limits, the EPC rules, ISO dates", async () => {
  const { directDebitCases, directDebitBreaks } = await import('../../harness/properties/direct-debit-cases.js');
  for (const v of sample(directDebitCases(), 11, 60) as { texts: Record<string, string>; lines: string[] }[]) {
    expect(v.lines.join('').length, 'the remittance lines hold 140 characters in all').toBeLessThanOrEqual(140);
    const id = v.texts['mandateRelatedInformation.mandateId'] ?? 'x';
    expect(id.startsWith('/') || id.endsWith('/') || id.includes('//'), `mandateId ${id}`).toBe(false);
  }
  for (const b of sample(directDebitBreaks('direct-debit.create.local-instrument-core')!, 12, 60) as {
    value: string;
  }[])
    expect(b.value.toUpperCase(), 'never CORE in another case').not.toBe('CORE');
  for (const b of sample(directDebitBreaks('direct-debit.create.dates-iso')!, 13, 60) as { value: string }[])
    expect(b.value, "never ISO 8601's basic form").not.toMatch(/^\d{8}$/);
  const address = COMBINATIONS.filter((x) => x.service === 'payments').flatMap((c) =>
    textFields(c, profile, paymentBody(c, profile)).filter((x) => /(buildingNumber|postalCode)$/.test(x.path)),
  );
  expect(address.length, 'an address is drawn').toBeGreaterThan(0);
  for (const f of address) expect(f.max, f.path).toBe(16);
});
