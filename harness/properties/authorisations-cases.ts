import fc from 'fast-check';
import { fieldRules, type FieldRule } from './schema-fields.js';

/*
 * Start-authorisation bodies (PUT <resourceBasePath>/authorisations/<authorisationId>, section F 2)
 * generated from their request schema (schemas/authorisations/start-request.ts, read by
 * schema-fields.ts) and the scaMethods the authorisation's creation offered: valid ones (any offered
 * authenticationMethodId), and ones that break the rule "the id is one of the listed methods" (States
 * > Authorisation): an id near the offered ones (one with characters appended, a proper prefix of
 * one, one with a character changed, another string), or a value of another type than the schema's.
 * A case names the offered method it starts with, or the one its broken id is made from, from the
 * methods a first authorisation of the group was offered (the property's probe); a fresh
 * authorisation that does not offer it takes its first offered method instead. No id is padded with
 * whitespace or differs from an offered one by case alone: a bank may be lenient there, and the
 * words do not forbid it.
 */

const SCHEMA = 'authorisations/start-request' as const;

/** The rule of authenticationMethodId in the start body. */
export const methodRule = (): FieldRule | undefined =>
  fieldRules(SCHEMA).find((r) => r.path === 'authenticationMethodId');

/** A valid start: on which claimed authorisation (its label), with which offered method. */
export interface StartCase {
  on: string;
  method: string;
}

/**
 * The claimed authorisation a case starts: an operation drawn first (each as often), then one of its
 * labels (a payment operation has one per claimed service and product), so that an operation with
 * one label is tried as often as one with fifteen.
 */
const onOf = (byOperation: string[][]): fc.Arbitrary<string> =>
  fc.oneof(...byOperation.map((labels) => fc.constantFrom(...labels)));

/** Valid starts over the labels of the claimed authorisations (by operation) and the methods offered (at least one of each). */
export function startCases(byOperation: string[][], methods: string[]): fc.Arbitrary<StartCase> {
  return fc.record({ on: onOf(byOperation), method: fc.constantFrom(...methods) });
}

/**
 * The starts tried first: every operation on each of its labels (a payment operation's services and
 * products) and with every method, at least once each, the methods in turn over the labels, so that
 * no product and no pairing of an operation and a method is left to chance; the drawn cases follow.
 */
export function startExamples(byOperation: string[][], methods: string[]): StartCase[] {
  return byOperation.flatMap((labels) =>
    Array.from({ length: Math.max(labels.length, methods.length) }, (_, k) => ({
      on: labels[k % labels.length],
      method: methods[k % methods.length],
    })),
  );
}

/** An id not among the offered ones, made near them (a string), or a value of another type. */
export type BrokenMethod =
  | { kind: 'appended'; of: string; suffix: string }
  | { kind: 'prefix'; of: string; cut: number }
  | { kind: 'changed'; of: string; at: number; to: number }
  | { kind: 'other string'; text: string }
  | { kind: 'number'; value: number }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'null' }
  | { kind: 'array'; of: string }
  | { kind: 'object'; of: string };

export interface BrokenStart {
  on: string;
  broken: BrokenMethod;
}

/** The characters of the ids generated near the offered ones: those method ids are written with, no whitespace. */
export const ID_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.';

const idText = (max: number) => fc.string({ unit: fc.constantFrom(...ID_CHARS), minLength: 1, maxLength: max });

/** The JSON types a value of another type than the rule's is drawn from. */
function otherTypes(rule: FieldRule | undefined, of: fc.Arbitrary<string>): fc.Arbitrary<BrokenMethod>[] {
  const all: [string, fc.Arbitrary<BrokenMethod>][] = [
    ['number', fc.integer().map((value) => ({ kind: 'number' as const, value }))],
    ['boolean', fc.boolean().map((value) => ({ kind: 'boolean' as const, value }))],
    ['null', fc.constant({ kind: 'null' as const })],
    ['array', of.map((i) => ({ kind: 'array' as const, of: i }))],
    ['object', of.map((i) => ({ kind: 'object' as const, of: i }))],
  ];
  const type = rule?.type === 'integer' ? 'number' : rule?.type;
  return all.filter(([t]) => t !== type).map(([, a]) => a);
}

/** The ids near the offered ones (only for a string field). */
function nearMisses(rule: FieldRule | undefined, of: fc.Arbitrary<string>): fc.Arbitrary<BrokenMethod>[] {
  if (rule?.type !== 'string') return [];
  return [
    fc.record({ kind: fc.constant('appended' as const), of, suffix: idText(8) }),
    fc.record({ kind: fc.constant('prefix' as const), of, cut: fc.nat({ max: 64 }) }),
    fc.record({ kind: fc.constant('changed' as const), of, at: fc.nat({ max: 64 }), to: fc.nat({ max: 63 }) }),
    fc.record({ kind: fc.constant('other string' as const), text: idText(24) }),
  ];
}

/** Starts that break "the id is one of the listed methods", over the labels of the claimed authorisations and the methods offered. */
export function brokenStarts(byOperation: string[][], methods: string[]): fc.Arbitrary<BrokenStart> {
  const rule = methodRule();
  const of = fc.constantFrom(...methods);
  return fc.record({ on: onOf(byOperation), broken: fc.oneof(...nearMisses(rule, of), ...otherTypes(rule, of)) });
}

/** Whether an id is an offered one, up to case (an id differing by case alone is never generated). */
const isOffered = (v: string, offered: string[]) => offered.some((m) => m.toLowerCase() === v.toLowerCase());

/** Grows `v` by `more` until it is no offered id. */
function notOffered(v: string, offered: string[], more: string): string {
  let out = v;
  while (isOffered(out, offered)) out += more;
  return out;
}

/** `base` with the character at `at` changed to one that differs from it beyond case, and no offered id. */
function changed(base: string, at: number, to: number, offered: string[]): string {
  const i = at % base.length;
  for (let k = 0; k < ID_CHARS.length; k++) {
    const ch = ID_CHARS[(to + k) % ID_CHARS.length];
    if (ch.toLowerCase() === base[i].toLowerCase()) continue;
    const v = base.slice(0, i) + ch + base.slice(i + 1);
    if (!isOffered(v, offered)) return v;
  }
  return notOffered(`${base}_`, offered, '_');
}

/** A proper prefix of `base`, at least the rule's minLength long, that is no offered id (else `base` with a character appended). */
function prefix(base: string, cut: number, offered: string[]): string {
  const min = Math.max(1, methodRule()?.minLength ?? 1);
  const cuts: number[] = [];
  for (let n = min; n < base.length; n++) if (!isOffered(base.slice(0, n), offered)) cuts.push(n);
  return cuts.length ? base.slice(0, cuts[cut % cuts.length]) : notOffered(`${base}_`, offered, '_');
}

/** The offered method a case names, or (not offered to this authorisation) its first offered one. */
export const offeredOr = (method: string, offered: string[]): string =>
  offered.includes(method) ? method : offered[0];

/** The authenticationMethodId a broken case sends, made from the ids this authorisation was offered (at least one). */
export function brokenMethod(b: BrokenMethod, offered: string[]): unknown {
  const base = 'of' in b ? offeredOr(b.of, offered) : '';
  switch (b.kind) {
    case 'appended':
      return notOffered(base + b.suffix, offered, b.suffix);
    case 'prefix':
      return prefix(base, b.cut, offered);
    case 'changed':
      return changed(base, b.at, b.to, offered);
    case 'other string':
      return notOffered(b.text, offered, b.text);
    case 'number':
    case 'boolean':
      return b.value;
    case 'null':
      return null;
    case 'array':
      return [base];
    case 'object':
      return { authenticationMethodId: base };
  }
}
