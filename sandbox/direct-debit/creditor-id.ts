/**
 * SEPA creditor identifier (EPC262-08): country code, two check digits, a three-character
 * creditor business code, and the national identifier (at most 35 characters in all). The check
 * digits are ISO 7064 mod 97-10 over the national identifier, the country code and "00"; the
 * business code takes no part in them.
 */
const FORM = /^([A-Z]{2})([0-9]{2})([A-Z0-9]{3})([A-Z0-9]{1,28})$/;

const mod97 = (digits: string): number => {
  let rest = 0;
  for (const ch of digits) rest = (rest * 10 + Number(ch)) % 97;
  return rest;
};

/** Letters as numbers (A = 10 … Z = 35), digits as they are (ISO 7064). */
const numeric = (s: string): string => [...s].map((c) => (/[A-Z]/.test(c) ? String(c.charCodeAt(0) - 55) : c)).join('');

/** The two check digits for a national identifier in a country. */
export function creditorIdCheckDigits(country: string, nationalId: string): string {
  return String(98 - mod97(numeric(`${nationalId}${country}00`))).padStart(2, '0');
}

/** A creditor identifier with its check digits computed, e.g. creditorId('NL', 'ZZZ', '302049760000'). */
export function creditorId(country: string, businessCode: string, nationalId: string): string {
  return `${country}${creditorIdCheckDigits(country, nationalId)}${businessCode}${nationalId}`;
}

/** Why `id` is not a valid SEPA creditor identifier, or undefined when it is. */
export function creditorIdProblem(id: string): string | undefined {
  if (id.length > 35) return 'is longer than 35 characters';
  const m = FORM.exec(id);
  if (!m) return 'is not of the form <country><2 check digits><3-character business code><national id>';
  const [, country, check, , national] = m;
  if (mod97(numeric(`${national}${country}${check}`)) !== 1)
    return `has wrong check digits ${check} (ISO 7064 mod 97-10)`;
  return undefined;
}
