import { expect, test } from '@playwright/test';
import type { Fault } from '../../sandbox/faults/fault.js';
import { COMBINATIONS, label } from '../../harness/areas/payments.js';
import { tagOf } from '../../harness/req.js';
import { faultCost, filesOf, listSuite, variantsLeftOut, type Listing } from '../support/run-matrix.js';

const fault = (breaks: string[], projects = ['payments']): Fault => ({
  id: 'payments.example',
  description: 'an example',
  projects,
  breaks,
  install: () => {},
});
/** What Playwright greps: the title path and the tags. */
const line = (title: string, ids: string[]) => `tests/payments/initiation.spec.ts ${title} ${ids.map(tagOf).join(' ')}`;

test('the matrix leaves out the other variants of payment checks that do not name what the fault breaks', () => {
  const leaveOut = new RegExp(variantsLeftOut(fault(['payments.initiate.response']))!);
  const out = (title: string, ids: string[]) => leaveOut.test(line(title, ids));
  // Another service × product, another requirement: left out.
  expect(out('bulk-payments/domestic: the 201 of an initiation carries Location', ['payments.initiate.headers'])).toBe(
    true,
  );
  expect(
    out('payments/international-tp: the 201 of an initiation carries Location', ['payments.initiate.headers']),
  ).toBe(true);
  // The first claimed combination runs every check.
  expect(
    out('payments/sepa-credit-transfers: the 201 of an initiation carries Location', ['payments.initiate.headers']),
  ).toBe(false);
  // Every variant of a check of what the fault breaks runs, also beside another requirement.
  expect(out('bulk-payments/domestic: a valid initiation answers 201', ['payments.initiate.response'])).toBe(false);
  expect(out('periodic-payments/swedish-giro: both', ['payments.initiate.headers', 'payments.initiate.response'])).toBe(
    false,
  );
  // A longer id that starts with the broken one is another requirement.
  expect(out('bulk-payments/domestic: longer id', ['payments.initiate.response-extra'])).toBe(true);
  // Checks that are not per combination always run.
  expect(out('an unknown payment product is rejected', ['payments.initiate.unknown-product'])).toBe(false);
  // With a folder, the pattern holds only in that fault's wrappers.
  const inDir = new RegExp(variantsLeftOut(fault(['payments.initiate.response']), '007-payments.example')!);
  expect(
    inDir.test(`007-payments.example/payments/initiation.spec.ts bulk-payments/domestic: b @payments.initiate.headers`),
  ).toBe(true);
  expect(
    inDir.test(`008-payments.other/payments/initiation.spec.ts bulk-payments/domestic: b @payments.initiate.headers`),
  ).toBe(false);
  // Faults outside payments leave nothing out.
  expect(variantsLeftOut(fault(['headers.x-request-id.echo'], ['headers']))).toBeUndefined();
});

test('a fault costs half a second per check it runs and fifteen per check it breaks', () => {
  const listing: Listing = {
    files: new Map([
      [
        'payments/initiation.spec.ts',
        [
          { title: 'payments/sepa-credit-transfers: a', ids: ['payments.initiate.response'] },
          { title: 'bulk-payments/domestic: a', ids: ['payments.initiate.response'] },
          { title: 'payments/sepa-credit-transfers: b', ids: ['payments.initiate.headers'] },
          { title: 'bulk-payments/domestic: b', ids: ['payments.initiate.headers'] },
        ],
      ],
      ['headers/common.spec.ts', [{ title: 'c', ids: ['headers.x-request-id.echo'] }]],
    ]),
  };
  const f = fault(['payments.initiate.response']);
  expect(faultCost(f, ['payments/initiation.spec.ts'], listing)).toBeCloseTo(30.9);
  expect(faultCost(f, ['payments/initiation.spec.ts'], listing, new RegExp(variantsLeftOut(f)!))).toBeCloseTo(30.45);
});

test('on the suite itself, a payment fault keeps every variant of the checks it breaks and one of the others', () => {
  test.setTimeout(90_000);
  const listing = listSuite();
  const f = fault(['payments.initiate.response']);
  const files = filesOf(f, listing, 'files');
  expect(files, 'the files that check payments.initiate.response').toEqual(['payments/initiation.spec.ts']);
  expect(filesOf(f, listing, 'areas').length, 'every file of the payments area').toBeGreaterThan(files.length);
  const leaveOut = new RegExp(variantsLeftOut(f)!);
  const tests = listing.files.get(files[0])!;
  const kept = tests.filter((t) => !leaveOut.test(`${t.title} ${t.ids.map(tagOf).join(' ')}`));
  const breaking = (t: { ids: string[] }) => t.ids.includes('payments.initiate.response');
  // The titles carry the service × product label the pattern reads: were they written another way, nothing would be left out.
  expect(kept.filter(breaking).length, 'every variant of the broken check').toBe(tests.filter(breaking).length);
  expect(tests.filter(breaking).length).toBeGreaterThanOrEqual(15);
  const others = tests.filter((t) => !breaking(t));
  const primary = label(COMBINATIONS[0]);
  const variant = (t: { title: string }) => COMBINATIONS.some((c) => t.title.startsWith(`${label(c)}: `));
  // The other checks: those made per service × product for the first one only, the rest all.
  expect(kept.filter((t) => !breaking(t)).map((t) => t.title)).toEqual(
    others.filter((t) => !variant(t) || t.title.startsWith(`${primary}: `)).map((t) => t.title),
  );
  expect(others.filter(variant).length, 'other checks made per service × product').toBeGreaterThan(50);
});
