import fc from 'fast-check';
import type { QueryValue } from '../http/client.js';
import { getPath, withPath, type Json } from '../values/json.js';

/*
 * Inputs outside what the specification defines, drawn and shrunk like the rest of the generated
 * phase (the robustness properties, harness/properties/robustness.ts): texts outside the minimum
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

/**
 * Texts outside the minimum set as a table, the simplest first: the cases tried first take them
 * (each class in every field at once), and a case holding them shrinks by dropping fields and
 * towards the table's first entries.
 */
export const TEXT_TABLE: readonly string[] = [
  'é',
  'Ω',
  'e\u0301',
  '\u{1F600}',
  '\u0001',
  ' a',
  'a ',
  '',
  'Müller Straße é',
  'ÅÄÖ åäö §©½',
  'Δοκιμή Тест 测试',
  'مرحبا שלום',
  'Jose\u0301 Mu\u0308ller',
  'Pay \u{1F600} back \u{1F680}',
  'line\u0001one\ttwo\u007f',
  'a\u0000b\nc',
  '  padded text  ',
  '\u00a0a\u00a0',
  'a'.repeat(5000),
  'é'.repeat(1000),
];

/** The class of a text outside the minimum set (its first that applies). */
export function classOf(s: string): TextClass {
  if (s === '') return 'empty';
  if (s.length >= 500) return 'oversized';
  if (/^\s|\s$/u.test(s)) return 'spaces-at-ends';
  // eslint-disable-next-line no-control-regex -- control characters are the class looked for
  if (/[\u0000-\u001f\u007f-\u009f]/u.test(s)) return 'control';
  // © and ® are Extended_Pictographic but Latin-1 letters of a text, not emoji.
  if (/[\u{10000}-\u{10ffff}]|(?![\u00a9\u00ae])\p{Extended_Pictographic}/u.test(s)) return 'emoji';
  if (/[\u0300-\u036f]/u.test(s)) return 'combining-mark';
  if (/[\u00a0-\u00ff]/u.test(s)) return 'latin-1';
  return 'other-script';
}

/** The first text of the table of each class: the cases tried first put it in every field. */
export const CANONICAL: Record<TextClass, string> = Object.fromEntries(
  TEXT_CLASSES.map((cls) => [
    cls,
    TEXT_TABLE.find((t) => classOf(t) === cls && t.length > 2) ?? TEXT_TABLE.find((t) => classOf(t) === cls)!,
  ]),
) as Record<TextClass, string>;

/** A text outside the minimum set: from the table, or drawn in any class. */
export const outsideTextValue = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(...TEXT_TABLE) },
  { weight: 2, arbitrary: outsideText().map((t) => t.value) },
);

/** How a valid value is turned into a near miss. */
export type NearMiss =
  'lower-case' | 'upper-case' | 'last-dropped' | 'one-appended' | 'middle-changed' | 'accented' | 'doubled' | 'padded';

export const NEAR_MISSES: readonly NearMiss[] = [
  'lower-case',
  'last-dropped',
  'one-appended',
  'middle-changed',
  'upper-case',
  'accented',
  'padded',
  'doubled',
];

/** A near miss of `valid` (a currency in lower case, an IBAN one character short, a date one digit off). */
export function nearMiss(valid: string, how: NearMiss): string {
  const mid = Math.floor(valid.length / 2);
  switch (how) {
    case 'lower-case':
      return valid.toLowerCase() === valid ? `${valid}a` : valid.toLowerCase();
    case 'upper-case':
      return valid.toUpperCase() === valid ? `A${valid}` : valid.toUpperCase();
    case 'last-dropped':
      return valid.slice(0, -1);
    case 'one-appended':
      return `${valid}1`;
    case 'middle-changed':
      return valid.slice(0, mid) + (valid[mid] === '#' ? '%' : '#') + valid.slice(mid + 1);
    case 'accented':
      return `${valid}é`;
    case 'doubled':
      return `${valid}${valid}`;
    case 'padded':
      return ` ${valid} `;
  }
}

export const nearMissArb = fc.constantFrom(...NEAR_MISSES);

/** A value of a JSON type the schema does not give the field (or of any type, for an unknown field). */
export const otherType = fc.constantFrom<unknown>(0, 1, -1, 1.5, 1e308, true, false, 'x', [], {}, ['x'], { x: 1 });

/** One change of a JSON body, at a path of it. */
export type BodyChange =
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

/** The string leaves of a body, by path. */
export const stringsOf = (body: Json): string[] =>
  nodesOf(body)
    .filter((n) => typeof n.value === 'string')
    .map((n) => n.path);

/** Texts outside the set at some of `paths` (at least one; a case shrinks by dropping paths). */
export const textsAt = (paths: string[]) =>
  fc
    .record(Object.fromEntries(paths.map((p) => [p, outsideTextValue])) as Record<string, fc.Arbitrary<string>>, {
      requiredKeys: [],
    })
    .filter((r): r is Record<string, string> => Object.keys(r).length > 0);

/** Near misses at some of `paths` (at least one). */
export const missesAt = (paths: string[]) =>
  fc
    .record(Object.fromEntries(paths.map((p) => [p, nearMissArb])) as Record<string, fc.Arbitrary<NearMiss>>, {
      requiredKeys: [],
    })
    .filter((r): r is Record<string, NearMiss> => Object.keys(r).length > 0);

/**
 * The structural changes of `body`, one to three per case: null or another type at any node, an
 * unknown property on any object (the body's own too), a duplicate item or an oversized list at any
 * array.
 */
export function bodyChanges(body: Json): fc.Arbitrary<BodyChange[]> {
  const nodes = nodesOf(body);
  const objects = [
    '',
    ...nodes.filter((n) => n.value && typeof n.value === 'object' && !Array.isArray(n.value)).map((n) => n.path),
  ];
  const arrays = nodes.filter((n) => Array.isArray(n.value) && n.value.length > 0).map((n) => n.path);
  const all = nodes.map((n) => n.path);
  const options: fc.Arbitrary<BodyChange>[] = [
    fc
      .record({ path: fc.constantFrom(...objects), name: fc.constantFrom(...UNKNOWN_NAMES), value: otherType })
      .map(({ path, name, value }) => ({ kind: 'unknown-property', path, name, value }) as const),
  ];
  if (all.length) {
    options.push(fc.constantFrom(...all).map((path) => ({ kind: 'null', path }) as const));
    options.push(
      fc
        .record({ path: fc.constantFrom(...all), value: otherType })
        .map(({ path, value }) => ({ kind: 'other-type', path, value }) as const),
    );
  }
  if (arrays.length) {
    options.push(
      fc
        .record({ path: fc.constantFrom(...arrays), index: fc.nat({ max: 9 }) })
        .map(({ path, index }) => ({ kind: 'duplicate-item', path, index }) as const),
    );
    options.push(
      fc
        .record({ path: fc.constantFrom(...arrays), length: fc.integer({ min: 50, max: 1000 }) })
        .map(({ path, length }) => ({ kind: 'oversized-array', path, length }) as const),
    );
  }
  return fc.uniqueArray(fc.oneof(...options), { minLength: 1, maxLength: 3, selector: (c) => c.path });
}

/** The body with `change` made. */
export function changedBody(body: Json, change: BodyChange): Json {
  const at = (p: string) => getPath(body, p);
  // A change under a node an earlier change of the case replaced is left out.
  if (change.path && at(change.path) === undefined) return body;
  switch (change.kind) {
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
export type IdChange = { miss: NearMiss } | { unknown: string } | { text: string };

export const idChanges: fc.Arbitrary<IdChange> = fc.oneof(
  fc.record({ miss: nearMissArb }),
  fc.record({ unknown: fc.oneof(fc.uuid(), fc.stringMatching(/^[A-Za-z0-9]{1,40}$/)) }),
  // A path of a few kilobytes at most: longer ones meet the HTTP server's own limit (414, 431) before the API.
  fc.record({ text: outsideTextValue.filter((t) => t !== '' && encodeURIComponent(t).length <= 2000) }),
);

/** The id as changed, written into a path (percent-encoded: a path segment carries any character so). */
export function changedId(id: string, change: IdChange): string {
  const raw = 'miss' in change ? nearMiss(id, change.miss) : 'unknown' in change ? change.unknown : change.text;
  return encodeURIComponent(raw);
}

/** Values of a query parameter outside the forms of any parameter, the simplest first. */
const QUERY_TABLE = [
  'é',
  '',
  ' ',
  '2000-13-01',
  '2000-1-1',
  '01-01-2000',
  '2000-01-01T00:00:00Z',
  'true',
  'yes',
  '1',
  '-1',
  'null',
  'booked,pending',
  'BOOKED',
  '\u0000',
  '\u{1F600}',
  "' OR 1=1 --",
  '{}',
  'a'.repeat(2000),
];

/**
 * The changes of a read's query over its `params` (name → a valid value) and an unknown
 * parameter: some of them set to a value outside its form (from the table, a near miss of the
 * valid one, a text outside the set) or repeated.
 */
export function queryChanges(params: Record<string, string>): fc.Arbitrary<Record<string, QueryValue>> {
  const names = [...Object.keys(params), 'unknownParameter'];
  const value = (n: string): fc.Arbitrary<QueryValue> =>
    fc.oneof(
      fc.constantFrom(...QUERY_TABLE),
      nearMissArb.map((m) => nearMiss(params[n] ?? 'x', m)),
      outsideText(['latin-1', 'other-script', 'emoji', 'control', 'spaces-at-ends']).map((t) => t.value),
      fc.constantFrom(...QUERY_TABLE).map((v) => [params[n] ?? 'x', v]),
    );
  return fc
    .record(Object.fromEntries(names.map((n) => [n, value(n)])) as Record<string, fc.Arbitrary<QueryValue>>, {
      requiredKeys: [],
    })
    .filter((r): r is Record<string, QueryValue> => Object.keys(r).length > 0);
}

/** A header value outside its form: what an HTTP client can send (Latin-1 without controls), drawn as the texts are. */
export const headerValues = fc.oneof(
  outsideText(['latin-1', 'spaces-at-ends', 'empty']).map((t) => t.value.replace(/[\t\u00a0]/g, ' ')),
  nearMissArb.filter((m) => m !== 'accented').map((m) => nearMiss('0.0.0.0', m)),
  fc.integer({ min: 500, max: 6000 }).map((n) => 'a'.repeat(n)),
  fc.constantFrom('-1', '99999', 'GEO:999;999', 'not a uuid', 'http://', '::1::', 'TRUE', 'null'),
);
