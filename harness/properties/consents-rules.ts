import fc from 'fast-check';
import type { Profile } from '../config/profile.js';
import { ibanArb, type BrokenConsent } from './consents-cases.js';
import { badCheckDigits } from './payments-rules.js';

/*
 * The rules of a create-consent body the schema's breakers leave unbroken, each broken once and
 * judged by the requirement the hand-written check of that rule uses (tests/consents/create.spec.ts):
 * a frequencyPerDay above the profile's maximum (consents.limits.frequency-max), an account
 * reference with none of iban, maskedPan or pan (consents.create.account-reference-invalid), an
 * IBAN failing its check digits (consents.create.account-reference-iban-check). A reference is put
 * in either list, the other left empty, as the hand-written check sends it.
 */

const CURRENCIES = ['EUR', 'SEK', 'GBP', 'DKK', 'NOK', 'USD'];

/** Access with one reference in one list, the other list empty. */
const inOneList = (ref: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<BrokenConsent> =>
  fc.tuple(fc.constantFrom('balances', 'transactions'), ref).map(([list, r]) => ({
    path: 'access',
    value: { balances: list === 'balances' ? [r] : [], transactions: list === 'transactions' ? [r] : [] },
  }));

/** The requirements of this file, in the order the test runs them. */
export const CONSENT_RULES = ['consents.limits.frequency-max', 'consents.create.account-reference-iban-check'] as const;

/**
 * A table, its space small enough to name (fourteen rows): a reference with none of iban,
 * maskedPan or pan (nothing, or a currency alone), in either list (consents.create.account-reference-invalid).
 */
export const REFERENCE_WITHOUT_ID_ROWS: BrokenConsent[] = (['balances', 'transactions'] as const).flatMap((list) =>
  [{}, ...CURRENCIES.map((currency) => ({ currency }))].map((r) => ({
    path: 'access',
    value: { balances: list === 'balances' ? [r] : [], transactions: list === 'transactions' ? [r] : [] },
  })),
);

/** The breaks of one rule of this file. */
export function consentRuleBreaks(requirement: (typeof CONSENT_RULES)[number], profile: Profile) {
  switch (requirement) {
    case 'consents.limits.frequency-max': {
      const max = profile.consents.maxFrequencyPerDay;
      return fc
        .integer({ min: max + 1, max: max + 100 })
        .map((n): BrokenConsent => ({ path: 'frequencyPerDay', value: n }));
    }
    case 'consents.create.account-reference-iban-check':
      return inOneList(
        fc
          .tuple(ibanArb.chain(badCheckDigits), fc.option(fc.constantFrom(...CURRENCIES), { nil: undefined }))
          .map(([iban, currency]) => (currency ? { iban, currency } : { iban })),
      );
  }
}
