import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { loadCatalogue } from '../../harness/catalogue/catalogue.js';
import { strictRun } from './strict-run.js';
import { readStrict } from './strict.js';

test.beforeAll(async () => {
  test.setTimeout(900_000);
  await strictRun();
});

// Judges the strict run of strict.setup.ts: one test per property.
test('the strict run is conformant', () => {
  const r = readStrict();
  expect(r.report?.verdict, `exit ${r.exitCode}, after ${r.durationMs} ms; output:\n${r.output}`).toBe('conformant');
  expect(r.exitCode).toBe(0);
  expect(r.report?.totals.passed ?? 0, 'requirements passed').toBeGreaterThan(100);
});

test('the strict run judges every area', () => {
  const r = readStrict();
  const judged = new Set(r.report?.requirements.filter((q) => q.verdict === 'passed').map((q) => q.area));
  const areas = [...new Set(loadCatalogue().all.map((q) => q.area))];
  expect(
    areas.filter((a) => !judged.has(a)),
    'areas with no requirement passed over the strict transport',
  ).toEqual([]);
});

test('every request of the strict run went through the proxy', () => {
  const r = readStrict();
  expect(r.requests, 'requests the sandbox served').toBeGreaterThan(100);
  expect(r.notThroughProxy, `of ${r.requests} requests, not through the proxy`).toBe(0);
});

test("no key, passphrase or signature value in clear in the strict run's reports", () => {
  expect(readStrict().leaks).toEqual([]);
});
