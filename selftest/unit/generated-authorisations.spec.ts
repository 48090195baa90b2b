import fc from 'fast-check';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import {
  brokenMethod,
  brokenStarts,
  ID_CHARS,
  methodRule,
  offeredOr,
  startCases,
  startExamples,
  type BrokenStart,
  type StartCase,
} from '../../harness/properties/authorisations-cases.js';
import { schemaRegistry } from '../../harness/values/schemas.js';

// The generators of the start-authorisation bodies (harness/properties/authorisations-cases.ts), with
// no target: what they draw from the schema and the offered methods, and that a broken id is never
// an offered one, nor one a lenient bank may take for it (padded, or another case of it).

const sample = <T>(gen: fc.Arbitrary<T>, seed: number, n: number): T[] => fc.sample(gen, { seed, numRuns: n });

/** The sandbox's methods, one method alone, and ids that are prefixes of one another. */
const OFFERED = [
  ['mbid', 'mbid_same_device', 'mbid_animated_qr_token', 'mbid_animated_qr_image'],
  ['mbid'],
  ['a', 'ab', 'abc'],
];

test('the start body is read from its schema: authenticationMethodId, a required non-empty string', () => {
  expect(methodRule()).toMatchObject({ path: 'authenticationMethodId', type: 'string', required: true, minLength: 1 });
});

test('a valid start draws an offered method, and each operation as often as the others', () => {
  const byOperation = [['consent'], Array.from({ length: 15 }, (_, i) => `payment ${i}`)];
  const cases = sample<StartCase>(startCases(byOperation, OFFERED[0]), 1, 400);
  expect(cases.every((c) => OFFERED[0].includes(c.method))).toBe(true);
  expect(new Set(cases.map((c) => c.method)).size).toBe(OFFERED[0].length);
  const consent = cases.filter((c) => c.on === 'consent').length;
  expect(consent, 'the operation of one label is drawn about half the time').toBeGreaterThan(140);
  expect(consent).toBeLessThan(260);
  for (const c of cases)
    expect(schemaRegistry().check('authorisations/start-request', { authenticationMethodId: c.method })).toEqual([]);
});

test('a broken start is no offered id, not even by case, holds no whitespace, and is near an offered one or of another type', () => {
  for (const [i, offered] of OFFERED.entries())
    for (const b of sample<BrokenStart>(brokenStarts([['on']], offered), 10 + i, 300)) {
      const v = brokenMethod(b.broken, offered);
      const what = `${JSON.stringify(b.broken)} → ${JSON.stringify(v)} (offered ${offered.join(', ')})`;
      if (typeof v !== 'string') {
        expect(['number', 'boolean', 'null', 'array', 'object'], what).toContain(b.broken.kind);
        expect(
          schemaRegistry().check('authorisations/start-request', { authenticationMethodId: v }).length,
          `${what}: breaks the schema's type`,
        ).toBeGreaterThan(0);
        continue;
      }
      expect(
        offered.map((m) => m.toLowerCase()),
        what,
      ).not.toContain(v.toLowerCase());
      expect(v, what).toMatch(new RegExp(`^[${ID_CHARS.replace(/[-\]\\]/g, '\\$&')}]+$`));
      const base = 'of' in b.broken ? b.broken.of : '';
      if (b.broken.kind === 'appended') expect(v.startsWith(base) && v.length > base.length, what).toBe(true);
      if (b.broken.kind === 'prefix') {
        // A proper non-empty prefix that is no offered id; where every one is offered, the id with a character appended.
        const some = [...base].some((_, n) => n > 0 && !offered.includes(base.slice(0, n)));
        if (some) expect(base.startsWith(v) && v.length < base.length, what).toBe(true);
        else expect(v.startsWith(base) && v.length > base.length, what).toBe(true);
      }
      if (b.broken.kind === 'changed' && v.length === base.length)
        expect(
          [...v].filter((ch, k) => ch.toLowerCase() !== base[k].toLowerCase()),
          what,
        ).toHaveLength(1);
    }
});

test('every kind of break is drawn, and an array or object holds an offered id', () => {
  const offered = OFFERED[0];
  const drawn = sample<BrokenStart>(brokenStarts([['on']], offered), 3, 400);
  expect(new Set(drawn.map((b) => b.broken.kind))).toEqual(
    new Set(['appended', 'prefix', 'changed', 'other string', 'number', 'boolean', 'null', 'array', 'object']),
  );
  for (const b of drawn.filter((x) => x.broken.kind === 'array' || x.broken.kind === 'object'))
    expect(JSON.stringify(brokenMethod(b.broken, offered))).toMatch(new RegExp(offered.join('|')));
});

test("a case's method not offered to a fresh authorisation falls back to its first offered one", () => {
  expect(offeredOr('mbid_animated_qr_image', ['mbid', 'mbid_same_device'])).toBe('mbid');
  expect(offeredOr('mbid_same_device', ['mbid', 'mbid_same_device'])).toBe('mbid_same_device');
  expect(brokenMethod({ kind: 'appended', of: 'gone', suffix: 'X' }, ['mbid'])).toBe('mbidX');
});

test('a break that lands on an offered id, or on another case of one, grows until it is none', () => {
  const offered = OFFERED[0];
  expect(brokenMethod({ kind: 'appended', of: 'mbid', suffix: '_same_device' }, offered)).toBe(
    'mbid_same_device_same_device',
  );
  expect(brokenMethod({ kind: 'other string', text: 'MBID' }, offered)).toBe('MBIDMBID');
  expect(brokenMethod({ kind: 'prefix', of: 'abc', cut: 0 }, ['a', 'ab', 'abc'])).toBe('abc_');
  expect(brokenMethod({ kind: 'changed', of: 'mbid', at: 0, to: ID_CHARS.indexOf('M') }, offered)).toBe('Nbid');
});

test('the starts tried first take every operation on each of its labels and with every method', () => {
  const byOperation = [
    ['consent'],
    Array.from({ length: 6 }, (_, i) => `payment ${i}`),
    ['cancellation x', 'cancellation y', 'cancellation z'],
  ];
  const methods = ['m1', 'm2', 'm3', 'm4'];
  const examples = startExamples(byOperation, methods);
  expect(examples).toHaveLength(4 + 6 + 4);
  for (const labels of byOperation) {
    const of = examples.filter((e) => labels.includes(e.on));
    expect(new Set(of.map((e) => e.method))).toEqual(new Set(methods));
    expect(new Set(of.map((e) => e.on))).toEqual(new Set(labels));
  }
});
