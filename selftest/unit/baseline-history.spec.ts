import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { applyBaseline, baselineText, loadBaseline } from '../../harness/reporter/baseline.js';
import { compareRuns, nightlySummary, type HistoryRecord } from '../../harness/reporter/history.js';
import type { RequirementVerdict } from '../../harness/reporter/verdicts.js';

const TODAY = new Date('2026-11-22T12:00:00Z');
const run = (verdicts: Record<string, RequirementVerdict>, errors?: string[]) => ({
  verdict: Object.values(verdicts).includes('failed') ? ('not-conformant' as const) : ('conformant' as const),
  ...(errors ? { errors } : {}),
  requirements: Object.entries(verdicts).map(([id, verdict]) => ({
    id,
    verdict,
    tests: [
      { title: id, file: 'x.spec.ts', status: verdict === 'untested' ? 'passed' : verdict, message: `${id} broke` },
    ],
  })),
});
const baselineFile = (yaml: string) => {
  const f = join(mkdtempSync(join(tmpdir(), 'obg-baseline-')), 'baseline.yaml');
  writeFileSync(f, yaml);
  return f;
};
const entry = (id: string, expires = '2027-01-31') =>
  `  - id: ${id}\n    reason: known since the last release\n    expires: ${expires}\n`;

test('a baseline excuses the failures it lists: exit 0', () => {
  const f = baselineFile(`requirements:\n${entry('a.one')}${entry('a.two')}`);
  const b = applyBaseline(
    run({ 'a.one': 'failed', 'a.two': 'warning', 'a.three': 'passed' }),
    f,
    loadBaseline(f),
    TODAY,
  );
  expect(b).toMatchObject({ known: ['a.one', 'a.two'], regressions: [], expired: [], fixed: [], exitCode: 0 });
});

test('a failure the baseline does not list is a regression: exit 1; a new warning is reported, not fatal', () => {
  const f = baselineFile(`requirements:\n${entry('a.one')}`);
  const b = applyBaseline(
    run({ 'a.one': 'failed', 'a.two': 'broken', 'a.three': 'warning' }),
    f,
    loadBaseline(f),
    TODAY,
  );
  expect(b.regressions).toEqual([{ id: 'a.two', verdict: 'broken' }]);
  expect(b.newWarnings).toEqual(['a.three']);
  expect(b.exitCode).toBe(1);
});

test('an expired entry fails the run even when its failure is the known one', () => {
  const f = baselineFile(`requirements:\n${entry('a.one', '2026-11-21')}`);
  const b = applyBaseline(run({ 'a.one': 'failed' }), f, loadBaseline(f), TODAY);
  expect(b.expired).toEqual([{ id: 'a.one', expires: '2026-11-21' }]);
  expect(b.regressions).toEqual([{ id: 'a.one', verdict: 'failed' }]);
  expect(b.exitCode).toBe(1);
});

test('a baselined requirement that now passes is reported fixed; one the run did not judge is left alone', () => {
  const f = baselineFile(`requirements:\n${entry('a.one')}${entry('b.elsewhere')}`);
  const b = applyBaseline(run({ 'a.one': 'passed' }), f, loadBaseline(f), TODAY);
  expect(b).toMatchObject({ fixed: ['a.one'], regressions: [], exitCode: 0 });
});

test('a baseline entry without a reason or a date, or a missing file, fails the run naming it', () => {
  const f = baselineFile(
    'requirements:\n  - id: a.one\n    expires: 2027-01-01\n  - id: a.two\n    reason: r\n    expires: soon\n',
  );
  const loaded = loadBaseline(f);
  expect(loaded.problems).toEqual([
    'BASELINE: entry 1 (a.one): no reason',
    'BASELINE: entry 2 (a.two): expires must be a date YYYY-MM-DD, got "soon"',
  ]);
  expect(applyBaseline(run({ 'a.one': 'passed' }), f, loaded, TODAY).exitCode).toBe(1);
  expect(loadBaseline('/nonexistent/baseline.yaml').problems[0]).toContain('no such file');
});

test('--write-baseline writes the failures and warnings, keeping the reasons already given, and reads back', () => {
  const text = baselineText(
    run({ 'a.one': 'failed', 'a.two': 'warning', 'a.three': 'passed' }),
    [{ id: 'a.one', reason: 'vendor ticket 42', expires: '2027-03-01' }],
    TODAY,
  );
  const f = baselineFile(text);
  const { entries, problems } = loadBaseline(f);
  expect(problems).toEqual([]);
  expect(entries).toEqual([
    { id: 'a.one', verdict: 'failed', reason: 'vendor ticket 42', expires: '2027-03-01' },
    { id: 'a.two', verdict: 'warning', reason: 'TO REVIEW: a.two broke', expires: '2027-02-20' },
  ]);
});

const record = (
  finishedAt: string,
  v: Record<string, RequirementVerdict | [RequirementVerdict, string]>,
): HistoryRecord => ({
  finishedAt,
  verdict: 'conformant',
  target: { baseUrl: 'http://127.0.0.1:1', profile: 'reference', embedded: true },
  requirements: Object.fromEntries(
    Object.entries(v).map(([id, x]) => [id, Array.isArray(x) ? { verdict: x[0], message: x[1] } : { verdict: x }]),
  ),
});

test('the comparison with the previous run: newly failing, newly passing, changed messages, flaky', () => {
  const past = [
    record('2026-11-19T00:00:00Z', { flip: 'passed', same: 'passed' }),
    record('2026-11-20T00:00:00Z', { flip: ['failed', 'x'], same: 'passed' }),
  ];
  const previous = record('2026-11-21T00:00:00Z', {
    flip: 'passed',
    same: 'passed',
    now: 'passed',
    fixedNow: ['failed', 'got 500'],
    msg: ['failed', 'expected 201, got 400'],
    gone: 'passed',
  });
  const current = record('2026-11-22T00:00:00Z', {
    flip: ['failed', 'x'],
    same: 'passed',
    now: ['warning', 'no Location header'],
    fixedNow: 'passed',
    msg: ['failed', 'expected 201, got 415'],
    fresh: ['failed', 'new requirement'],
  });
  const c = compareRuns(current, previous, [...past, previous], 10);
  expect(c.newlyFailing).toEqual([
    { id: 'flip', verdict: 'failed', was: 'passed' },
    { id: 'now', verdict: 'warning', was: 'passed' },
  ]);
  expect(c.newlyPassing).toEqual([{ id: 'fixedNow', was: 'failed' }]);
  expect(c.changedMessages).toEqual([
    { id: 'msg', verdict: 'failed', was: 'failed: expected 201, got 400', now: 'failed: expected 201, got 415' },
  ]);
  expect(c.flaky).toEqual([{ id: 'flip', verdicts: ['passed', 'failed', 'passed', 'failed'] }]);
  // A window of 2 runs sees one change only: not flaky.
  expect(compareRuns(current, previous, [...past, previous], 2).flaky).toEqual([]);
});

test('the nightly summary: one line and a small JSON with verdict, counts, new failures and fixed', () => {
  const report = {
    target: { baseUrl: 'https://bank.example', profile: 'reference', embedded: false },
    startedAt: '2026-11-22T01:00:00Z',
    finishedAt: '2026-11-22T01:10:00Z',
    verdict: 'not-conformant' as const,
    totals: { passed: 10, failed: 1, warning: 0, skipped: 0, broken: 0, blocked: 0, untested: 0 },
    requirements: [],
  };
  const changes = compareRuns(
    record('2026-11-22T01:10:00Z', { a: ['failed', 'x'], b: 'passed' }),
    record('2026-11-21T01:10:00Z', { a: 'passed', b: ['failed', 'y'] }),
    [],
    10,
  );
  const s = nightlySummary(report, changes);
  expect(s).toMatchObject({ verdict: 'not-conformant', newFailures: ['a'], fixed: ['b'], totals: report.totals });
  expect(s.line).toBe(
    'obg-conformance https://bank.example (reference) 2026-11-22: NOT-CONFORMANT; 10 passed, 1 failed, 0 warning, 0 broken, 0 blocked, 0 untested; new failures: a; fixed: b',
  );
});
