import fc from 'fast-check';
import { composeIBAN } from 'ibantools';
import { isoDate } from '../values/dates.js';
import { withPath, type Json } from '../values/json.js';
import { fieldRules, type FieldRule } from './schema-fields.js';

/*
 * Create-consent bodies generated from their request schema (schemas/consents/consent-request.ts,
 * read by schema-fields.ts) and the Consent table's rules: valid ones of each kind the table names
 * (recurring or one-off, any frequency a recurring consent may have, a validUntil of any future
 * day or the maximum, with or without a payment in the same session; access to the accounts the
 * bank offers, or dedicated to account references by IBAN, with or without a currency, or by masked
 * PAN), and ones that break exactly
 * one rule of the schema: a required field left out, a field of another type, a number under its
 * minimum.
 */

const SCHEMA = 'consents/consent-request' as const;

/** A valid case: the kinds the Consent table names. */
export interface ConsentCase {
  recurring: boolean;
  /** frequencyPerDay of a recurring consent (a one-off one uses 1: "One-off access uses 1"). */
  frequency: number;
  /** validUntil: days from today, or the maximum ("`9999-12-31` requests the maximum"). */
  validIn: number | 'maximum';
  combined: boolean;
  /** Dedicated access: the references of each list; absent for the accounts the bank offers (empty lists). */
  access?: { balances: AccountReference[]; transactions: AccountReference[] };
}

/** An account reference of the Consent table: `iban`, `maskedPan` or `pan`, and an optional `currency`. */
export interface AccountReference {
  iban?: string;
  maskedPan?: string;
  currency?: string;
}

const digits = (n: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((d) => d.join(''));

/** A BBAN of each country's layout (its bank code fixed), the IBAN's check digits computed (ISO 13616). */
const BBAN = { SE: ['500', 17], DE: ['37040044', 10], NL: ['ABNA', 10], FI: ['123456', 8], GB: ['NWBK', 14] } as const;
export const ibanArb = fc
  .constantFrom(...(Object.keys(BBAN) as (keyof typeof BBAN)[]))
  .chain((country) =>
    digits(BBAN[country][1]).map((d) => composeIBAN({ countryCode: country, bban: BBAN[country][0] + d })!),
  );

/** One reference: an IBAN with or without a currency, or a masked PAN (six digits, six x, four digits). */
export const accountReferenceArb: fc.Arbitrary<AccountReference> = fc.oneof(
  fc.record({ iban: ibanArb }),
  fc.record({ iban: ibanArb, currency: fc.constantFrom('EUR', 'SEK', 'GBP', 'DKK', 'NOK', 'USD') }),
  fc.tuple(digits(6), digits(4)).map(([first, last]) => ({ maskedPan: `${first}xxxxxx${last}` })),
);

/** The most references a generated list holds (the schema sets no maximum). */
const MOST_REFERENCES = 4;

/** Dedicated access: one to four references in each list (a list of one or more, so that order and count are tried). */
const dedicatedAccess = fc.record({
  balances: fc.array(accountReferenceArb, { minLength: 1, maxLength: MOST_REFERENCES }),
  transactions: fc.array(accountReferenceArb, { minLength: 1, maxLength: MOST_REFERENCES }),
});

/**
 * Valid cases, frequencyPerDay within the schema's minimum and maximum; with `dedicated` (the
 * read-back's cases), access is dedicated to generated references in three of four (a bank may
 * decline references to accounts the PSU does not hold: harness/areas/value-spaces.ts, such a case
 * is declined, not read back), and the values the read-back does not compare stay plain
 * (validUntil a day of the coming year, no combined service).
 */
export function consentCases({ dedicated = false } = {}): fc.Arbitrary<ConsentCase> {
  const frequency = fieldRules(SCHEMA).find((r) => r.path === 'frequencyPerDay');
  return fc.record({
    recurring: fc.boolean(),
    frequency: fc.integer({ min: frequency?.minimum ?? 1, max: frequency?.maximum ?? 4 }),
    validIn: dedicated
      ? fc.integer({ min: 1, max: 365 })
      : fc.oneof(fc.integer({ min: 1, max: 365 }), fc.constant('maximum' as const)),
    combined: dedicated ? fc.constant(false) : fc.boolean(),
    access: dedicated
      ? fc.oneof({ arbitrary: fc.constant(undefined), weight: 1 }, { arbitrary: dedicatedAccess, weight: 3 })
      : fc.constant(undefined),
  });
}

/** The body of a valid case: access dedicated to its references, or to the accounts the bank offers (empty lists). */
export function consentBody(v: ConsentCase): Json {
  return {
    access: v.access ?? { balances: [], transactions: [] },
    recurringIndicator: v.recurring,
    validUntil: v.validIn === 'maximum' ? '9999-12-31' : isoDate(v.validIn),
    frequencyPerDay: v.recurring ? v.frequency : 1,
    combinedServiceIndicator: v.combined,
  };
}

/** One rule broken: where, and the value put there (undefined: the field left out). */
export interface BrokenConsent {
  path: string;
  value: unknown;
}

/** Values of another type than a rule's. */
function otherType(r: FieldRule): fc.Arbitrary<unknown> {
  switch (r.type) {
    case 'boolean':
      return fc.constantFrom('true', 'false', 1, 0, null);
    case 'integer':
      return fc.oneof(
        fc.double({ min: 1.01, max: 3.99, noNaN: true }).filter((n) => !Number.isInteger(n)),
        fc.constantFrom('2', true, null),
      );
    case 'object':
      return fc.constantFrom('all', [], 1, true, null);
    default:
      // A date: a string that is no ISO date, or no string at all.
      return r.format === 'date'
        ? fc.constantFrom('2099-13-01', '2099-02-30', '31.12.2099', 'tomorrow', 20991231, true)
        : fc.constantFrom(1, true, null);
  }
}

/**
 * The breaks of each rule, by the requirement that judges it: consents.create.required-fields (a
 * required field left out), consents.create.field-types (a field of another type),
 * consents.limits.frequency-min (frequencyPerDay under its minimum).
 */
export function consentBreaks(requirement: string): fc.Arbitrary<BrokenConsent> | undefined {
  const top = fieldRules(SCHEMA).filter((r) => !r.path.includes('.') && !r.path.includes('['));
  const at = (rules: FieldRule[], value: (r: FieldRule) => fc.Arbitrary<unknown>) =>
    rules.length
      ? fc.oneof(...rules.map((r) => value(r).map((v): BrokenConsent => ({ path: r.path, value: v }))))
      : undefined;
  switch (requirement) {
    case 'consents.create.required-fields':
      return at(
        top.filter((r) => r.required),
        () => fc.constant(undefined),
      );
    case 'consents.create.field-types':
      return at(top, otherType);
    case 'consents.limits.frequency-min':
      return at(
        top.filter((r) => r.minimum !== undefined),
        (r) => fc.integer({ min: r.minimum! - 5, max: r.minimum! - 1 }),
      );
    default:
      return undefined;
  }
}

/** The valid body the broken ones are made from (and their control): a recurring consent for 30 days. */
export const validConsentBody = (): Json =>
  consentBody({ recurring: true, frequency: 4, validIn: 30, combined: false });

/** The body of a broken case: the valid body with the one rule broken. */
export const brokenConsentBody = (b: BrokenConsent): Json => withPath(validConsentBody(), b.path, b.value);
