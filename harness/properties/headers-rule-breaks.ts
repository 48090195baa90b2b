import fc from 'fast-check';
import type { Operation } from '../operations.js';
import type { BrokenHeader } from './headers-cases.js';

/*
 * Header values breaking a rule the format breakers (header-cases.ts) leave unbroken, each near the
 * target's valid value and judged by the requirement of its hand-written check: X-BicFi off the BIC
 * pattern (headers.x-bicfi.pattern, tests/headers/bicfi.spec.ts) on every operation requiring it;
 * TPP-Redirect-URI that is no URI (payments.initiate.redirect-uri-format, tests/payments/
 * refusals.spec.ts) on initiate payment; a Consent-ID the bank never issued, near the test's own
 * (accounts.consent.unknown, tests/accounts/consent.spec.ts) on the account reads.
 */

/** "six letters, one character from A-Z or 2-9, one from A-N, P-Z or 0-9, then an optional group of three characters A-Z or 0-9." */
export const isBicFi = (v: string) => /^[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$/.test(v);

/** The operations that require X-BicFi (every one but the ASPSP information operations). */
export const needsBicFi = (o: Operation) => o.requires.includes('X-BicFi');

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** X-BicFi values near the target's BIC, each breaking one part of the pattern. */
export function brokenBicFis(bic: string): fc.Arbitrary<BrokenHeader> {
  const b = (bic || 'ESSESESS').slice(0, 8).toUpperCase();
  const at = (i: number, ch: string) => `${b.slice(0, i)}${ch}${b.slice(i + 1)}`;
  const cases: fc.Arbitrary<{ broken: string; how: string }>[] = [
    // Any non-empty set of its letters in lower case.
    fc
      .uniqueArray(fc.integer({ min: 0, max: 7 }), { minLength: 1, maxLength: 8 })
      .map((is) => [...b].map((ch, i) => (is.includes(i) ? ch.toLowerCase() : ch)).join(''))
      .filter((v) => v !== b)
      .map((broken) => ({ broken, how: 'letters in lower case' })),
    // A length other than 8 or 11: cut short (1 to 7), or 9, 10 or 12 characters.
    fc.integer({ min: 1, max: 7 }).map((n) => ({ broken: b.slice(0, n), how: `${n} characters` })),
    fc
      .tuple(fc.constantFrom(1, 2, 4), fc.string({ unit: fc.constantFrom(...UPPER), minLength: 4, maxLength: 4 }))
      .map(([n, tail]) => ({ broken: `${b}${tail.slice(0, n)}`, how: `${8 + n} characters` })),
    // A digit among the six letters of the bank and country code.
    fc
      .tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 9 }))
      .map(([i, d]) => ({ broken: at(i, String(d)), how: `a digit at position ${i + 1}` })),
    // The 7th character 0 or 1 (only A-Z or 2-9), the 8th O (only A-N, P-Z or 0-9).
    fc.constantFrom('0', '1').map((d) => ({ broken: at(6, d), how: `7th character ${d}` })),
    fc.constant({ broken: at(7, 'O'), how: '8th character O' }),
    // A branch of three characters other than A-Z and 0-9.
    fc
      .tuple(fc.constantFrom('-', '_', ' ', 'x', '.'), fc.integer({ min: 0, max: 2 }))
      .map(([ch, i]) => ({ broken: `${b}${'XXX'.slice(0, i)}${ch}${'XXX'.slice(i + 1)}`, how: `branch with "${ch}"` })),
  ];
  return fc
    .oneof(...cases)
    .filter(({ broken }) => !isBicFi(broken))
    .map(({ broken, how }) => ({ header: 'X-BicFi', valid: b, broken, how }));
}

/** A value with an RFC 3986 scheme (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`): a URI may start so. */
const hasScheme = (v: string) => /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(v);

/**
 * TPP-Redirect-URI values that are no URI (RFC 3986: every URI starts with a scheme and ':'),
 * near the target's own: its address without the scheme, the scheme broken, free words.
 */
export function brokenRedirectUris(valid: string): fc.Arbitrary<BrokenHeader> {
  const rest = valid.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  return fc
    .oneof(
      fc.constantFrom('not a uri at all', '://no-scheme', 'http//missing-colon', `//${rest}`),
      fc.constantFrom('1http', '-http', 'ht tp', '+http', '').map((scheme) => `${scheme}://${rest}`),
      fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz /'.split('')), minLength: 1, maxLength: 30 }),
    )
    .filter((v) => v.trim() !== '' && !hasScheme(v))
    .map((broken) => ({ header: 'TPP-Redirect-URI', valid, broken, how: 'no URI (no scheme)' }));
}

const HEX = '0123456789abcdef';

/**
 * Consent-IDs the bank never issued, near the valid one (the test's authorised consent): one
 * character changed to another (a hex digit of the other case excluded: a uuid is read in either
 * case), one dropped, one appended, or another uuid.
 */
export function unknownConsentIds(valid: string): fc.Arbitrary<BrokenHeader> {
  const at = fc.integer({ min: 0, max: Math.max(0, valid.length - 1) });
  return fc
    .oneof(
      fc.tuple(at, fc.constantFrom(...HEX)).map(([i, ch]) => ({
        broken: `${valid.slice(0, i)}${ch}${valid.slice(i + 1)}`,
        how: `character ${i + 1} changed`,
      })),
      at.map((i) => ({ broken: `${valid.slice(0, i)}${valid.slice(i + 1)}`, how: `character ${i + 1} dropped` })),
      fc.constantFrom(...HEX).map((ch) => ({ broken: `${valid}${ch}`, how: 'a character appended' })),
      fc.uuid({ version: 4 }).map((broken) => ({ broken, how: 'another uuid' })),
    )
    .filter(({ broken }) => broken.toLowerCase() !== valid.toLowerCase())
    .map(({ broken, how }) => ({ header: 'Consent-ID', valid, broken, how }));
}
