import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { runDir } from '../support/run-dir.js';
import { fromRoot } from '../../harness/config/paths.js';
import type { QuotedResult } from '../../harness/reporter/report.js';
import { foldAllureResults, foldedTests } from '../../harness/reporter/one-verdict.js';
import { foldJunit } from '../../harness/reporter/junit-verdict.js';
import { junitCounts } from '../support/one-verdict.js';

const FILE = 'tests/payments/initiate.spec.ts';
const CASE = 'bulk-payments/sepa-credit-transfers';
const q = (id: string, level: QuotedResult['level'], tests: QuotedResult['tests']): QuotedResult => ({
  id,
  level,
  area: 'payments',
  section: 'Payment initiation',
  text: `the rule of ${id}`,
  quote: `The bank "must" answer ${id} <now>.`,
  quoteFrom: 'spec',
  verdict: tests[0].status,
  tests,
});
const requirements = [
  q('payments.initiate.response', 'MUST', [
    { title: `${CASE} › a valid payment is accepted`, file: FILE, status: 'failed', message: 'expected 201, got 400' },
  ]),
  q('payments.initiate.required-fields', 'MUST', [
    {
      title: `${CASE} › a payment without amount is refused`,
      file: FILE,
      status: 'blocked',
      blockedBy: 'payments.initiate.response',
      message: '[blocked by payments.initiate.response] its positive control did not pass here',
    },
  ]),
  q('payments.initiate.location', 'SHOULD', [
    { title: `${CASE} › a valid payment is accepted`, file: FILE, status: 'warning', message: 'no Location header' },
    { title: "the bank's own test", file: FILE, status: 'warning', message: 'no Location' },
  ]),
];
const titles = [`${CASE} › a valid payment is accepted`, `${CASE} › a payment without amount is refused`];

test('after the fold, an Allure result and a JUnit case say what the report says, told apart and described', () => {
  const dir = runDir('one-verdict');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'allure-results'), { recursive: true });
  const tests = foldedTests(requirements);
  // A test naming a MUST that failed and a SHOULD that warned is failed (the worst).
  expect([...tests.values()].map((t) => t.status)).toEqual(['failed', 'blocked', 'warning']);
  titles.forEach((title, i) =>
    writeFileSync(
      join(dir, 'allure-results', `u${i}-result.json`),
      JSON.stringify({
        uuid: `u${i}`,
        name: title.split(' › ').pop(),
        fullName: `payments/initiate.spec.ts › ${title}`,
        status: i === 0 ? 'failed' : 'passed',
        statusDetails: {},
        parameters: [{ name: 'Project', value: 'conformance' }],
        labels: [
          { name: 'story', value: i === 0 ? 'payments.initiate.response' : 'payments.initiate.required-fields' },
        ],
      }),
    ),
  );
  expect(foldAllureResults(join(dir, 'allure-results'), tests, fromRoot('tests'), requirements)).toEqual({
    rewritten: 2,
    unmatched: 0,
  });
  const read = (i: number) => JSON.parse(readFileSync(join(dir, 'allure-results', `u${i}-result.json`), 'utf8'));
  const blocked = read(1);
  expect(blocked.status).toBe('skipped');
  expect(blocked.statusDetails.message).toMatch(/^\[blocked by payments\.initiate\.response\] /);
  expect(blocked.labels).toEqual(
    expect.arrayContaining([
      { name: 'verdict', value: 'blocked' },
      { name: 'blockedBy', value: 'payments.initiate.response' },
    ]),
  );
  expect(blocked.name).toBe(`a payment without amount is refused [${CASE}]`);
  expect(blocked.parameters).toEqual(
    expect.arrayContaining([
      { name: 'payment service', value: 'bulk-payments' },
      { name: 'payment product', value: 'sepa-credit-transfers' },
    ]),
  );
  expect(blocked.descriptionHtml).toContain('<b>MUST</b> <code>payments.initiate.required-fields</code>');
  expect(blocked.descriptionHtml).toContain('<blockquote>The bank &quot;must&quot; answer');
  expect(blocked.descriptionHtml).toContain('href="specification.html#req-payments.initiate.required-fields"');
  const failed = read(0);
  expect([failed.status, failed.labels.find((l: { name: string }) => l.name === 'verdict').value]).toEqual([
    'failed',
    'failed',
  ]);
  // Both requirements the test names are described.
  expect(failed.descriptionHtml).toContain('payments.initiate.location');

  const junit = join(dir, 'junit.xml');
  const tc = (title: string, inner: string) =>
    `<testcase name="${title.replace(/'/g, '&apos;')}" classname="payments/initiate.spec.ts" time="0.1">\n${inner}</testcase>\n`;
  writeFileSync(
    junit,
    `<testsuites id="" name="" tests="3" failures="2" skipped="0" errors="0" time="1">\n<testsuite name="payments/initiate.spec.ts" hostname="conformance" tests="3" failures="2" skipped="0" time="1" errors="0">\n` +
      tc(titles[0], '<failure message="expected 201" type="FAILURE">\n</failure>\n') +
      tc(titles[1], '<system-out>\n</system-out>\n') +
      tc("the bank's own test", '<failure message="no Location" type="FAILURE">\n</failure>\n') +
      '</testsuite>\n</testsuites>\n',
  );
  expect(foldJunit(junit, tests)).toBe(3);
  expect(junitCounts(dir)).toEqual({ tests: 3, failures: 2, skipped: 1 });
  const xml = readFileSync(junit, 'utf8');
  expect(xml).toContain('<skipped message="[blocked by payments.initiate.response]');
  expect(xml).toContain('<failure message="[warning] no Location"');
});
