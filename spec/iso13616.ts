// ISO 13616, the one IBAN judge of the suite and the sandbox: an IBAN is valid when its country
// is in the IBAN registry, its length is that country's and its check digits pass ISO 7064 mod
// 97-10. The registry's BBAN layout and a country's own check digits inside the BBAN (a national
// check, e.g. North Macedonia's) are no part of the IBAN's validity: they give a note, never a
// refusal. ibantools holds the registry; its isValidIBAN also runs the national checks, which is
// why it is not used to judge.
import { countrySpecs, isValidBBAN } from 'ibantools';

/** The mod 97-10 remainder of an IBAN (ISO 7064): 1 for valid check digits. */
export function mod97(iban: string): number {
  const moved = `${iban.slice(4)}${iban.slice(0, 4)}`.toUpperCase();
  let rest = 0;
  for (const ch of moved) {
    const code = ch.charCodeAt(0);
    const digits = code >= 65 && code <= 90 ? String(code - 55) : ch;
    for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest;
}

/** Why an IBAN is not valid under ISO 13616 (country, length, check digits); undefined when it is. */
export function ibanProblem(iban: string): string | undefined {
  if (!/^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{1,30}$/.test(iban))
    return 'is not of the form <country><2 check digits><up to 30 letters and digits>';
  const spec = countrySpecs[iban.slice(0, 2)];
  if (!spec?.chars) return `names no country of the IBAN registry (${iban.slice(0, 2)})`;
  if (iban.length !== spec.chars) return `has ${iban.length} characters, where ${iban.slice(0, 2)} IBANs have ${spec.chars}`;
  if (mod97(iban) !== 1) return 'fails its check digits (ISO 7064 mod 97-10)';
  return undefined;
}

/** True when the IBAN is valid under ISO 13616. */
export const isIso13616Iban = (iban: string): boolean => ibanProblem(iban) === undefined;

/** A note on a valid IBAN whose BBAN breaks its country's layout or national check (never a refusal). */
export function ibanNote(iban: string): string | undefined {
  if (ibanProblem(iban)) return undefined;
  return isValidBBAN(iban.slice(4), iban.slice(0, 2))
    ? undefined
    : `passes ISO 13616, but its BBAN fails the national layout or check of ${iban.slice(0, 2)} (a note, not a refusal)`;
}
