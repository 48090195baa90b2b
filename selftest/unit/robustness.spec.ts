import fc from 'fast-check';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { floorOf } from '../../harness/properties/run.js';
import { readsAsSent, robustCases, robustExamples, type Subject } from '../../harness/properties/robustness.js';
import {
  CANONICAL,
  classOf,
  nearMiss,
  NEAR_MISSES,
  outsideText,
  TEXT_CLASSES,
  TEXT_TABLE,
} from '../../harness/properties/robustness-cases.js';
import { generatedOptionsOf, PINNED_SEED } from '../../scripts/generated-options.mjs';

// The robustness properties' parts: the texts they send lie outside the specification's minimum
// set, a declared normalisation is the only leeway a read-back gets, the cases tried first shrink
// to the one field that fails, and certification and baselines pin the seed.

const MINIMUM = /^[a-zA-Z0-9/\-?:().,'+]*$/;

test('every text drawn or tabled holds something outside the minimum set or is beyond every limit, and each class has its canonical text', () => {
  for (const t of [...TEXT_TABLE, ...fc.sample(outsideText(), { numRuns: 300, seed: 7 }).map((x) => x.value)])
    expect(
      t === '' || t.length >= 500 || !MINIMUM.test(t),
      `${JSON.stringify(t.slice(0, 40))} lies outside the minimum set (or beyond every limit)`,
    ).toBe(true);
  for (const cls of TEXT_CLASSES) expect(classOf(CANONICAL[cls]), cls).toBe(cls);
  for (const d of fc.sample(outsideText(['emoji']), { numRuns: 50, seed: 3 })) expect(classOf(d.value)).toBe('emoji');
});

test('a near miss is never the valid value itself', () => {
  for (const v of ['EUR', 'SE4550000000058398257466', '2026-01-01', 'x'])
    for (const m of NEAR_MISSES) expect(nearMiss(v, m), `${m} of ${v}`).not.toBe(v);
});

test('a text reads back as sent, or as sent under the declared normalisation only', () => {
  expect(readsAsSent('Müller', 'Müller', [])).toBe(true);
  expect(readsAsSent(' a ', 'a', []), 'trimmed without a declaration').toBe(false);
  expect(readsAsSent(' a ', 'a', ['trim'])).toBe(true);
  expect(readsAsSent('Müller', 'Muller', []), 'folded without a declaration').toBe(false);
  expect(readsAsSent('Müller', 'Muller', ['fold'])).toBe(true);
  expect(readsAsSent('Pay \u{1F600} back', 'Pay ?? back', ['fold']), 'a character beyond the BMP as two').toBe(true);
  expect(readsAsSent('Straße 1', 'Strae 1', ['fold']), 'a character dropped').toBe(true);
  expect(readsAsSent('Müller Straße', 'M', ['fold', 'trim']), 'cut short: no normalisation').toBe(false);
  expect(readsAsSent('abc', 'abd', ['fold', 'trim'])).toBe(false);
  expect(readsAsSent('a', undefined, ['fold'])).toBe(false);
});

test('a case tried first (each class in every free text) shrinks to the one field that fails', () => {
  const subjects: Subject[] = [
    {
      operation: 'payments.initiate',
      sample: { creditorName: 'A', remittance: 'B', city: 'C' },
      texts: ['creditorName', 'remittance', 'city'],
    },
  ];
  const examples = robustExamples(subjects);
  expect(examples).toHaveLength(TEXT_CLASSES.length);
  const fails = (c: unknown) =>
    /[\u00c0-\u00ff]/.test(String((c as { texts?: Record<string, string> }).texts?.remittance ?? ''));
  const r = fc.check(
    fc.property(robustCases(subjects), (c) => !fails(c)),
    { examples: examples.map((e) => [e]), numRuns: examples.length, seed: 1 },
  );
  expect(r.failed).toBe(true);
  expect(r.counterexample?.[0]).toEqual({ on: 0, texts: { remittance: 'é' } });
});

test('certification and baselines pin the seed unless one is given; a property ended by its time bound needs half its cases', () => {
  const none = { PATH: '' };
  expect(generatedOptionsOf(['--pin-seed', '--workers=2'], none, '/nonexistent')).toMatchObject({
    args: ['--workers=2'],
    seed: PINNED_SEED,
  });
  expect(generatedOptionsOf([], { ...none, BASELINE: 'b.yaml' }, '/nonexistent')).toMatchObject({ seed: PINNED_SEED });
  expect(generatedOptionsOf(['--write-baseline'], none, '/nonexistent')).toMatchObject({
    args: ['--write-baseline'],
    seed: PINNED_SEED,
  });
  expect(generatedOptionsOf(['--pin-seed', '--seed', '9'], none, '/nonexistent')).toMatchObject({ seed: 9 });
  expect([floorOf(1), floorOf(20), floorOf(7)]).toEqual([1, 10, 4]);
});

test('© and ® are Latin-1 letters of a text, not emoji: the emoji tried first is one', () => {
  expect(classOf('§©½')).toBe('latin-1');
  expect(classOf('®')).toBe('latin-1');
  expect(classOf('\u{1F600}')).toBe('emoji');
  expect(classOf('☺')).toBe('emoji');
  expect(CANONICAL.emoji).toMatch(/[\u{10000}-\u{10ffff}]|\p{Extended_Pictographic}/u);
  expect(CANONICAL.emoji).not.toMatch(/^[\u0020-\u00ff]*$/u);
});
