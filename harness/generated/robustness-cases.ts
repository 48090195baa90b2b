import fc from 'fast-check';
import type { QueryValue } from '../http/client.js';
import { getPath, withPath, type Json } from '../values/json.js';

/*
 * Inputs outside what the specification defines, drawn and shrunk like the rest of the generated
 * phase (the robustness properties, harness/generated/robustness.ts): texts outside the minimum
 * character set (Latin-1, other scripts, combining marks, emoji, control characters, spaces at
 * either end, empty, oversized), near misses of a valid value, null, values of another JSON type,
 * unknown properties, duplicate and oversized arrays, malformed JSON and other content types,
 * malformed and unknown path ids, malformed query parameters, header values outside their forms.
 * Each case is data (what to change, where, to what), so its counterexample reads as the change.
 */

/** The kinds of text outside the specification's minimum set. */
export type TextClass =
  'latin-1' | 'other-script' | 'combining-mark' | 'emoji' | 'control' | 'spaces-at-ends' | 'empty' | 'oversized';

const letters = fc.string({ unit: fc.constantFrom(...'abcXYZ019'), maxLength: 6 });
const fromRanges = (...ranges: [number, number][]) =>
  fc.oneof(...ranges.map(([min, max]) => fc.integer({ min, max }))).map((cp) => String.fromCodePoint(cp));

/** A text holding one to three characters of `special` among letters of the minimum set (shrinks to one character). */
const holding = (special: fc.Arbitrary<string>) =>
  fc
    .tuple(letters, fc.array(special, { minLength: 1, maxLength: 3 }), letters)
    .map(([a, s, b]) => `${a}${s.join('')}${b}`);

const CLASSES: Record<TextClass, fc.Arbitrary<string>> = {
  // Letters of Latin-1 beyond ASCII (é, ß, Å, ÿ) and its signs (§, ©, ½).
  'latin-1': holding(fromRanges([0xe0, 0xff], [0xc0, 0xde], [0xa1, 0xbf])),
  // Greek, Cyrillic, Arabic, Hebrew, CJK.
  'other-script': holding(fromRanges([0x391, 0x3c9], [0x410, 0x44f], [0x627, 0x64a], [0x5d0, 0x5ea], [0x4e00, 0x4fff])),
  // A letter with combining marks after it (e + U+0301 is é decomposed).
  'combining-mark': fc
    .tuple(letters, fc.array(fromRanges([0x300, 0x36f]), { minLength: 1, maxLength: 2 }))
    .map(([a, m]) => `${a || 'e'}${m.join('')}`),
  // Characters outside the Basic Multilingual Plane (two UTF-16 units each).
  emoji: holding(fromRanges([0x1f600, 0x1f64f], [0x1f300, 0x1f5ff], [0x1f680, 0x1f6ff])),
  // C0 and C1 controls and DEL (tab, line feed, NUL among them).
  control: holding(fromRanges([0x00, 0x1f], [0x7f, 0x9f])),
  'spaces-at-ends': fc
    .tuple(fc.constantFrom(' ', '  ', '\t', '\u00a0', ''), letters, fc.constantFrom(' ', '  ', '\t', '\u00a0', ''))
    .filter(([a, , b]) => a !== '' || b !== '')
    .map(([a, t, b]) => `${a}${t}${b}`),
  empty: fc.constant(''),
  // Far over any limit of the specification (35, 70, 140).
  oversized: fc
    .tuple(fc.integer({ min: 1000, max: 20_000 }), fc.constantFrom('a', 'é', '1'))
    .map(([n, c]) => c.repeat(n)),
};

export const TEXT_CLASSES = Object.keys(CLASSES) as TextClass[];

/** A text outside the minimum set, with its class. */
export const outsideText = (classes: TextClass[] = TEXT_CLASSES) =>
  fc.oneof(...classes.map((cls) => CLASSES[cls].map((value) => ({ cls, value }))));

/** How a valid value is turned into a near miss. */
export type NearMiss = 'lower-case' | 'upper-case' | 'last-dropped' | 'one-appended' | 'one-changed' | 'doubled';

/** A near miss of `valid` (a currency in lower case, an IBAN one character short, a date one digit off). */
export function nearMiss(valid: string, how: NearMiss, at: number, by: string): string {
  const i = valid.length ? at % valid.length : 0;
  switch (how) {
    case 'lower-case':
      return valid.toLowerCase() === valid ? `${valid}${by}` : valid.toLowerCase();
    case 'upper-case':
      return valid.toUpperCase() === valid ? `${by}${valid}` : valid.toUpperCase();
    case 'last-dropped':
      return valid.slice(0, -1);
    case 'one-appended':
      return `${valid}${by}`;
    case 'one-changed':
      return valid.slice(0, i) + (valid[i] === by ? '#' : by) + valid.slice(i + 1);
    case 'doubled':
      return `${valid}${valid}`;
  }
}

export const nearMissArb = fc.record({
  how: fc.constantFrom<NearMiss>('one-changed', 'last-dropped', 'one-appended', 'lower-case', 'upper-case', 'doubled'),
  at: fc.nat({ max: 40 }),
  by: fc.constantFrom('1', 'Z', 'x', '-', '_', ' ', '%', 'é', '0'),
});

/** A value of a JSON type the schema does not give the field (or of any type, for an unknown field). */
export const otherType = fc.constantFrom<unknown>(0, 1, -1, 1.5, 1e308, true, false, 'x', [], {}, ['x'], { x: 1 });

/** One change of a JSON body, at a path of it. */
export type BodyChange =
  | { kind: 'text'; path: string; cls: TextClass; value: string }
  | { kind: 'near-miss'; path: string; how: NearMiss; at: number; by: string }
  | { kind: 'null'; path: string }
  | { kind: 'other-type'; path: string; value: unknown }
  | { kind: 'unknown-property'; path: string; name: string; value: unknown }
  | { kind: 'duplicate-item'; path: string; index: number }
  | { kind: 'oversized-array'; path: string; length: number };

/** One change of the request as a whole. */
export type WholeChange =
  | { kind: 'malformed-json'; how: 'truncated' | 'trailing-comma' | 'single-quotes' | 'not-json' | 'empty'; at: number }
  | { kind: 'content-type'; contentType: string };

/** The leaves and nodes of a body, by path ("a.b[0].c"), with their values. */
export function nodesOf(body: unknown, path = ''): { path: string; value: unknown }[] {
  const here = path ? [{ path, value: body }] : [];
  if (Array.isArray(body)) return [...here, ...body.flatMap((v, i) => nodesOf(v, `${path}[${i}]`))];
  if (body && typeof body === 'object')
    return [...here, ...Object.entries(body).flatMap(([k, v]) => nodesOf(v, path ? `${path}.${k}` : k))];
  return here;
}

const UNKNOWN_NAMES = ['unknownField', 'x', 'extension', 'transactionStatus', 'paymentId', '_links', 'ÿ', ''];

/**
 * The changes of `body`, one per case: a text (outside the set) or a near miss at any string leaf,
 * null or another type at any node, an unknown property on any object (the body's own too), a
 * duplicate item or an oversized list at any array. `texts` (the free-text paths) are drawn twice as
 * often as the other string leaves: that is where a bank's characters live.
 */
export function bodyChanges(body: Json, texts: string[] = []): fc.Arbitrary<BodyChange> {
  const nodes = nodesOf(body);
  const strings = nodes.filter((n) => typeof n.value === 'string').map((n) => n.path);
  const objects = [
    '',
    ...nodes.filter((n) => n.value && typeof n.value === 'object' && !Array.isArray(n.value)).map((n) => n.path),
  ];
  const arrays = nodes.filter((n) => Array.isArray(n.value) && n.value.length > 0).map((n) => n.path);
  const all = nodes.map((n) => n.path);
  const free = texts.filter((t) => strings.includes(t));
  const options: fc.WeightedArbitrary<BodyChange>[] = [];
  if (free.length)
    options.push({
      weight: 4,
      arbitrary: fc
        .record({ path: fc.constantFrom(...free), t: outsideText() })
        .map(({ path, t }) => ({ kind: 'text', path, cls: t.cls, value: t.value })),
    });
  if (strings.length) {
    options.push({
      weight: 2,
      arbitrary: fc
        .record({ path: fc.constantFrom(...strings), t: outsideText() })
        .map(({ path, t }) => ({ kind: 'text', path, cls: t.cls, value: t.value })),
    });
    options.push({
      weight: 2,
      arbitrary: fc
        .record({ path: fc.constantFrom(...strings), n: nearMissArb })
        .map(({ path, n }) => ({ kind: 'near-miss', path, ...n })),
    });
  }
  if (all.length) {
    options.push({ weight: 1, arbitrary: fc.constantFrom(...all).map((path) => ({ kind: 'null', path }) as const) });
    options.push({
      weight: 1,
      arbitrary: fc
        .record({ path: fc.constantFrom(...all), value: otherType })
        .map(({ path, value }) => ({ kind: 'other-type', path, value }) as const),
    });
  }
  options.push({
    weight: 1,
    arbitrary: fc
      .record({ path: fc.constantFrom(...objects), name: fc.constantFrom(...UNKNOWN_NAMES), value: otherType })
      .map(({ path, name, value }) => ({ kind: 'unknown-property', path, name, value }) as const),
  });
  if (arrays.length) {
    options.push({
      weight: 1,
      arbitrary: fc
        .record({ path: fc.constantFrom(...arrays), index: fc.nat({ max: 9 }) })
        .map(({ path, index }) => ({ kind: 'duplicate-item', path, index }) as const),
    });
    options.push({
      weight: 1,
      arbitrary: fc
        .record({ path: fc.constantFrom(...arrays), length: fc.integer({ min: 50, max: 1000 }) })
        .map(({ path, length }) => ({ kind: 'oversized-array', path, length }) as const),
    });
  }
  return fc.oneof(...options);
}

/** The body with `change` made. */
export function changedBody(body: Json, change: BodyChange): Json {
  const at = (p: string) => getPath(body, p);
  switch (change.kind) {
    case 'text':
      return withPath(body, change.path, change.value);
    case 'near-miss':
      return withPath(body, change.path, nearMiss(String(at(change.path)), change.how, change.at, change.by));
    case 'null':
      return withPath(body, change.path, null);
    case 'other-type':
      return withPath(body, change.path, change.value);
    case 'unknown-property': {
      const target = change.path ? at(change.path) : body;
      const grown = { ...(target as Json), [change.name]: change.value };
      return change.path ? withPath(body, change.path, grown) : grown;
    }
    case 'duplicate-item': {
      const list = at(change.path) as unknown[];
      const i = change.index % list.length;
      return withPath(body, change.path, [...list.slice(0, i + 1), list[i], ...list.slice(i + 1)]);
    }
    case 'oversized-array': {
      const list = at(change.path) as unknown[];
      return withPath(
        body,
        change.path,
        Array.from({ length: change.length }, (_v, i) => list[i % list.length]),
      );
    }
  }
}

export const wholeChanges: fc.Arbitrary<WholeChange> = fc.oneof(
  fc.record({
    kind: fc.constant('malformed-json' as const),
    how: fc.constantFrom(
      'truncated' as const,
      'trailing-comma' as const,
      'single-quotes' as const,
      'not-json' as const,
      'empty' as const,
    ),
    at: fc.nat({ max: 200 }),
  }),
  fc.record({
    kind: fc.constant('content-type' as const),
    contentType: fc.constantFrom(
      'text/plain',
      'application/xml',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=iso-8859-1',
      'application/jsonx',
      '',
    ),
  }),
);

/** The raw body and Content-Type of a whole change of `body`. */
export function wholeRequest(body: Json, change: WholeChange): { raw: string; contentType: string } {
  const json = JSON.stringify(body);
  if (change.kind === 'content-type') return { raw: json, contentType: change.contentType };
  const raw = {
    truncated: json.slice(0, Math.max(1, Math.min(json.length - 1, 1 + (change.at % Math.max(1, json.length - 1))))),
    'trailing-comma': json.replace(/}$/, ',}'),
    'single-quotes': json.replace(/"/g, "'"),
    'not-json': 'paymentId=1&x=é',
    empty: '',
  }[change.how];
  return { raw, contentType: 'application/json' };
}

/** One change of a path id (the last id of a resource's path). */
export type IdChange =
  | { kind: 'near-miss'; how: NearMiss; at: number; by: string }
  | { kind: 'unknown'; id: string }
  | { kind: 'text'; cls: TextClass; value: string };

export const idChanges: fc.Arbitrary<IdChange> = fc.oneof(
  nearMissArb.map((n) => ({ kind: 'near-miss', ...n }) as const),
  fc.oneof(fc.uuid(), fc.stringMatching(/^[A-Za-z0-9]{1,40}$/)).map((id) => ({ kind: 'unknown', id }) as const),
  outsideText(['latin-1', 'other-script', 'emoji', 'control', 'spaces-at-ends', 'oversized']).map(
    (t) => ({ kind: 'text', cls: t.cls, value: t.cls === 'oversized' ? t.value.slice(0, 2000) : t.value }) as const,
  ),
);

/** The id as changed, written into a path (percent-encoded: a path segment carries any character so). */
export function changedId(id: string, change: IdChange): string {
  const raw =
    change.kind === 'near-miss'
      ? nearMiss(id, change.how, change.at, change.by)
      : change.kind === 'unknown'
        ? change.id
        : change.value;
  return encodeURIComponent(raw);
}

/** One change of a read's query: a parameter set to a value outside its form, repeated, or one unknown. */
export interface QueryChange {
  name: string;
  how: 'text' | 'near-miss' | 'other-form' | 'repeated';
  value: QueryValue;
}

/** A near miss of a date, and the forms of the other parameters' values. */
const OTHER_FORMS = [
  '',
  'true',
  'false',
  '1',
  'yes',
  'booked',
  'both',
  '2000-01-01',
  '9999-99-99',
  '-1',
  'null',
  '%',
  'é',
];

/** The changes of a read's query over its `params` (name → a valid value), an unknown parameter among them. */
export function queryChanges(params: Record<string, string>): fc.Arbitrary<QueryChange> {
  const names = [...Object.keys(params), 'unknownParameter'];
  const valid = (n: string) => params[n] ?? 'x';
  return fc.constantFrom(...names).chain((name) =>
    fc.oneof(
      outsideText(['latin-1', 'other-script', 'emoji', 'control', 'spaces-at-ends', 'empty', 'oversized']).map(
        (t) => ({ name, how: 'text', value: t.cls === 'oversized' ? t.value.slice(0, 4000) : t.value }) as QueryChange,
      ),
      nearMissArb.map(
        (n) => ({ name, how: 'near-miss', value: nearMiss(valid(name), n.how, n.at, n.by) }) as QueryChange,
      ),
      fc.constantFrom(...OTHER_FORMS).map((value) => ({ name, how: 'other-form', value }) as QueryChange),
      fc.constantFrom(...OTHER_FORMS).map((v) => ({ name, how: 'repeated', value: [valid(name), v] }) as QueryChange),
    ),
  );
}

/** A header value outside its form: what an HTTP client can send (Latin-1 without controls), drawn as the texts are. */
export const headerValues = fc.oneof(
  outsideText(['latin-1', 'spaces-at-ends', 'empty']).map((t) => t.value.replace(/[\t\u00a0]/g, ' ')),
  nearMissArb.map((n) => nearMiss('0.0.0.0', n.how, n.at, n.by.replace('é', 'e'))),
  fc.integer({ min: 500, max: 6000 }).map((n) => 'a'.repeat(n)),
  fc.constantFrom('-1', '99999', 'GEO:999;999', 'not a uuid', 'http://', '::1::', 'TRUE', 'null'),
);
