import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import {
  entriesFor,
  entryRuns,
  PROOF_ANNOTATION,
  proofEntryOf,
  type ProofEntry,
  type ProofPlan,
} from '../../harness/proof.js';
import { loadCatalogue } from '../../harness/catalogue/catalogue.js';
import { loadProfile } from '../../harness/config/profile.js';
import { listSuite, planOf, proofCases, runsOf, type ProofCase } from '../proof/plan.js';

const entry = (expectFailing: string[], runs: string[], allVariants = false): ProofEntry => ({
  id: 'payments.example',
  kind: 'fault',
  expectFailing,
  runs,
  allVariants,
});
const plan = (e: ProofEntry): ProofPlan => ({
  header: 'x-h',
  representative: { service: 'payments', product: 'sepa-credit-transfers' },
  entries: [e],
});
const under = (service: string, product: string) => [
  { type: 'service', description: service },
  { type: 'product', description: product },
];

test("a running test's entry is the one its proof annotation names, with the header the front routes by", () => {
  const e = entry(['payments.initiate.response'], ['payments.initiate.response']);
  const other = { ...entry([], ['payments.read.fields']), id: 'payments.other' };
  const p = { ...plan(e), entries: [other, e] };
  const declared = [{ type: 'requirement', description: 'payments.initiate.response' }];
  expect(proofEntryOf([...declared, { type: PROOF_ANNOTATION, description: e.id }], p)).toEqual({
    header: 'x-h',
    entry: e,
  });
  expect(proofEntryOf([{ type: PROOF_ANNOTATION, description: other.id }], p)?.entry).toBe(other);
  // A test declared outside an entry, an id the plan does not hold, or no plan: no entry.
  expect(proofEntryOf(declared, p)).toBeUndefined();
  expect(proofEntryOf([{ type: PROOF_ANNOTATION, description: 'payments.unknown' }], p)).toBeUndefined();
  expect(proofEntryOf([{ type: PROOF_ANNOTATION, description: e.id }], null)).toBeUndefined();
});

test('an entry runs the tests of its requirements; the other declared variants only where they name what it breaks', () => {
  const e = entry(['payments.initiate.response'], ['payments.initiate.response', 'payments.initiate.headers']);
  const p = plan(e);
  // Not among the entry's requirements: not declared for it.
  expect(entryRuns(p, e, ['payments.read.fields'], under('payments', 'sepa-credit-transfers'))).toBe(false);
  // The representative variant runs every check of the entry.
  expect(entryRuns(p, e, ['payments.initiate.headers'], under('payments', 'sepa-credit-transfers'))).toBe(true);
  // Another service × product: only the checks of what it breaks.
  expect(entryRuns(p, e, ['payments.initiate.headers'], under('bulk-payments', 'domestic'))).toBe(false);
  expect(entryRuns(p, e, ['payments.initiate.response'], under('bulk-payments', 'domestic'))).toBe(true);
  // A test declared under no variant always runs.
  expect(entryRuns(p, e, ['payments.initiate.headers'], [])).toBe(true);
  // The long mode runs every variant.
  const all = entry(['payments.initiate.response'], ['payments.initiate.headers'], true);
  expect(entryRuns(plan(all), all, ['payments.initiate.headers'], under('bulk-payments', 'domestic'))).toBe(true);
});

test('on the suite itself: a case runs the files that check what it concerns, or its whole areas in the long mode', () => {
  test.setTimeout(90_000);
  const listing = listSuite();
  const c: ProofCase = {
    id: 'payments.example',
    kind: 'fault',
    description: 'd',
    breaks: ['payments.initiate.response'],
    warns: [],
    concerns: ['payments.initiate.response'],
  };
  const files = runsOf(c, listing, 'files');
  const areas = runsOf(c, listing, 'areas');
  expect(files).toContain('payments.initiate.response');
  expect(areas.length, 'every requirement of the payments area').toBeGreaterThan(files.length);
  const catalogue = loadCatalogue();
  expect(areas.every((id) => catalogue.byId.get(id)?.area === 'payments')).toBe(true);
  // The plan names the first service × product the profile claims as the representative.
  const p = planOf([c], listing, 'files');
  const payments = loadProfile('reference').payments!;
  expect(p.representative).toEqual({ service: payments.services![0], product: payments.products![0] });
  expect(planOf([c], listing, 'areas').representative).toBeUndefined();
  // Every case of the sandbox reaches at least one test.
  const unreached = proofCases().filter((x) => runsOf(x, listing, 'files').length === 0);
  expect(unreached.map((x) => x.id)).toEqual([]);
});

test("the index by requirement declares a test for exactly the entries entryRuns accepts, in the plan's order", () => {
  test.setTimeout(90_000);
  const listing = listSuite();
  const p = planOf(proofCases(), listing, 'files');
  const naive = (ids: string[], around: ReturnType<typeof under>) =>
    p.entries.filter((e) => entryRuns(p, e, ids, around)).map((e) => e.id);
  const idLists = [...new Map([...listing.values()].flat().map((ids) => [ids.join(','), ids])).values()];
  // Every requirement list a test of the suite names, one of two names, and none.
  const cases = [...idLists, ['payments.initiate.response', 'consents.create.response'], ['no.such.requirement'], []];
  let declared = 0;
  for (const ids of cases)
    for (const around of [under('payments', 'sepa-credit-transfers'), under('bulk-payments', 'domestic'), []]) {
      const got = entriesFor(p, ids, around).map((e) => e.id);
      expect(got, `${ids.join(', ')} under ${JSON.stringify(around)}`).toEqual(naive(ids, around));
      declared += got.length;
    }
  expect(declared, 'the comparison declares tests at all').toBeGreaterThan(1000);
});
