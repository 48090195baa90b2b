import { expect as plain } from '@playwright/test';
import { test } from '../support/test.js';
import { expect } from '../../harness/expect.js';
import { holds, PLAIN } from '../../harness/playwright-internals/quiet-expect.js';

/** Playwright's own verdict on `value` `[.not].matcher(...args)`: true when the assertion holds. */
const playwrightHolds = (matcher: string, isNot: boolean, value: unknown, args: unknown[]): boolean => {
  const m = plain(value) as unknown as Record<string, unknown> & { not: Record<string, unknown> };
  try {
    ((isNot ? m.not : m)[matcher] as (...a: unknown[]) => unknown)(...args);
    return true;
  } catch {
    return false;
  }
};

const sparse: unknown[] = [];
sparse[2] = 1;
// Values on which Jest's built-in matchers and a plain comparison could part: -0 and 0, NaN, '0'
// and 0, null and undefined, an array's holes, a RegExp with the g flag, objects by reference.
const obj = { a: 1 };
const VALUES: unknown[] = [
  0,
  -0,
  1,
  2.5,
  NaN,
  '',
  '0',
  'abc',
  'a.c',
  null,
  undefined,
  true,
  false,
  obj,
  { a: 1 },
  [1, '2', obj],
  sparse,
  [],
  /b/g,
];
const ARGS: unknown[][] = [[], [undefined], ...VALUES.map((v) => [v]), ['b'], [/^a/], [/B/i], [/b/g], [1, 2]];

test('a built-in matcher decided without its step agrees with Playwright wherever it decides, positive and negated', () => {
  let decided = 0;
  const parted: string[] = [];
  for (const matcher of Object.keys(PLAIN))
    for (const value of VALUES)
      for (const args of ARGS)
        for (const isNot of [false, true]) {
          if (!holds({}, matcher, isNot, value, args)) continue;
          decided++;
          // The regexp's own lastIndex must not have moved: Playwright's matcher would then read it.
          if (!playwrightHolds(matcher, isNot, value, args))
            parted.push(`${isNot ? 'not.' : ''}${matcher}(${String(args.map((a) => String(a)))}) on ${String(value)}`);
        }
  plain(parted, 'assertions that hold here and that Playwright fails').toEqual([]);
  // Not vacuous: most of the table is decided here (the rest goes to Playwright).
  plain(decided).toBeGreaterThan(500);
});

test('the usual assertions of the suite are decided without a step', () => {
  const cases: [string, boolean, unknown, unknown[]][] = [
    ['toBe', false, 'valid', ['valid']],
    ['toBe', true, 'valid', ['rejected']],
    ['toBeTruthy', false, 'a-consent-id', []],
    ['toBeUndefined', false, undefined, []],
    ['toMatch', false, 'ACCP', [/^(ACCP|ACSC)$/]],
    ['toContain', false, ['ACCP', 'RCVD'], ['RCVD']],
    ['toBeGreaterThan', false, 3, [0]],
  ];
  for (const [matcher, isNot, value, args] of cases) plain(holds({}, matcher, isNot, value, args), matcher).toBe(true);
  // Not decided here: Playwright judges them.
  plain(holds({}, 'toEqual', false, { a: 1 }, [{ a: 1 }])).toBe(false);
  plain(holds({}, 'toBe', false, 1, [1, 'extra'])).toBe(false);
  plain(holds({}, 'toMatch', false, 1, [/1/])).toBe(false);
});

test("a failing assertion is Playwright's own: the same message, and a soft one is recorded as a soft error", async () => {
  const message = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      return (err as Error).message;
    }
    return 'no failure';
  };
  plain(message(() => expect('RJCT', 'a collection under a good mandate').not.toBe('RJCT'))).toBe(
    message(() => plain('RJCT', 'a collection under a good mandate').not.toBe('RJCT')),
  );
  plain(message(() => expect(['a']).toContain('b'))).toBe(message(() => plain(['a']).toContain('b')));
  plain(message(() => expect({ a: 1 }).toEqual({ a: 2 }))).toBe(message(() => plain({ a: 1 }).toEqual({ a: 2 })));

  const info = test.info();
  const before = info.errors.length;
  expect.soft(2, 'two is not three').toBe(3);
  expect.soft(2).toBe(2);
  const recorded = info.errors.slice(before).map((e) => e.message ?? '');
  // This test's own verdict is not the soft error's: it is taken back once seen.
  info.errors.splice(before);
  if (before === 0) info.status = 'passed';
  plain(recorded).toHaveLength(1);
  plain(recorded[0]).toContain('two is not three');
});
