import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { directoryFaultsRun, DIRECTORY_FAULTS_WORKERS } from '../support/directory-faults.js';
import type { SuiteRun } from '../support/run-suite.js';
import { countsOf } from '../../harness/reporter/console-summary.js';

/**
 * A failure keeps its worker (harness/test.ts, `_keepWorker`) and is a failure again for every
 * reporter (harness/reporter/outcome.ts). The directory area runs against a sandbox with its
 * faults switched on: the failed requirements must be the same in conformance.json, junit.xml
 * and the Allure results, and the run must not have started a worker per failure.
 */
// One suite run for the file's tests: they run in order, in one worker.
test.describe.configure({ mode: 'default' });

let run: SuiteRun;
/** The run's figures (conformance.json's `run`). */
const stats = () => {
  const s = run.report?.run;
  if (!s) throw new Error(`no run figures in conformance.json; output:\n${run.output.slice(-3000)}`);
  return s;
};

test.beforeAll(async () => {
  test.setTimeout(180_000);
  run = await directoryFaultsRun();
});

/**
 * Requirement ids of the tests conformance.json reports failed, warned or broken (a blocked test
 * is skipped in junit.xml and Allure, naming its root cause: harness/reporter/one-verdict.ts).
 */
const fromConformance = (r: SuiteRun) =>
  new Set(
    r
      .report!.requirements.filter((q) => q.tests.some((t) => ['failed', 'warning', 'broken'].includes(t.status)))
      .map((q) => q.id),
  );

/** Requirement ids (the `requirement` property) of the test cases junit.xml holds a failure or error for. */
function fromJUnit(dir: string): Set<string> {
  const xml = readFileSync(join(dir, 'junit.xml'), 'utf8');
  const ids = new Set<string>();
  for (const [, body] of xml.matchAll(/<testcase\b[^>]*>([\s\S]*?)<\/testcase>/g)) {
    if (!/<(failure|error)\b/.test(body)) continue;
    for (const [, id] of body.matchAll(/<property name="requirement" value="([^"]+)"/g)) ids.add(id);
  }
  return ids;
}

/** Requirement ids (the `tag` labels) of the Allure results that did not pass. */
function fromAllure(dir: string): Set<string> {
  const results = join(dir, 'allure-results');
  const ids = new Set<string>();
  for (const f of readdirSync(results).filter((n) => n.endsWith('-result.json'))) {
    const r = JSON.parse(readFileSync(join(results, f), 'utf8')) as {
      status?: string;
      labels?: { name: string; value: string }[];
    };
    if (r.status !== 'failed' && r.status !== 'broken') continue;
    for (const l of r.labels ?? []) if (l.name === 'tag') ids.add(l.value);
  }
  return ids;
}

test('the run with the directory faults on ends not conformant, with failures', () => {
  expect(run.report, `no conformance.json; output:\n${run.output.slice(-3000)}`).toBeDefined();
  expect(run.report!.verdict).toBe('not-conformant');
  expect(stats().failedTests, 'tests that failed').toBeGreaterThan(3);
});

test('every failure shows in conformance.json, junit.xml and the Allure results alike', () => {
  const conformance = [...fromConformance(run)].sort();
  expect(conformance.length).toBeGreaterThan(0);
  expect(existsSync(join(run.reportsDir, 'junit.xml')), 'junit.xml was written').toBe(true);
  expect([...fromJUnit(run.reportsDir)].sort(), 'failed requirements in junit.xml').toEqual(conformance);
  expect([...fromAllure(run.reportsDir)].sort(), 'failed requirements in the Allure results').toEqual(conformance);
});

test("the console's counts are the report's, and it names every failed MUST", () => {
  // The suite's console (harness/reporter/console.ts) prints the counts of conformance.json.
  const report = run.report!;
  expect(countsOf(run.output), `the counts line; output:\n${run.output.slice(-3000)}`).toEqual({
    totals: report.totals,
    skips: report.skips,
  });
  expect(report.totals.failed).toBeGreaterThan(0);
  for (const q of report.requirements.filter((r) => r.verdict === 'failed'))
    expect(run.output, `a line for ${q.id}`).toMatch(new RegExp(`^  ${q.id.replace(/\./g, '\\.')}: \\S`, 'm'));
});

test('a failure does not cost a new worker: the run started no more workers than it has', () => {
  expect(
    stats().workerStarts,
    `worker processes started for ${stats().tests} tests with ${stats().failedTests} failures`,
  ).toBeLessThanOrEqual(DIRECTORY_FAULTS_WORKERS);
});
