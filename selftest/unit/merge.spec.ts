import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import type { ConformanceReport, QuotedResult } from '../../harness/reporter/report.js';
import type { TestOutcome } from '../../harness/reporter/verdicts.js';
import { mergeReports } from '../../scripts/merge.js';

const t = (status: TestOutcome['status'], extra: Partial<TestOutcome> = {}): TestOutcome => ({
  title: `a test ${status}`,
  file: 'tests/directory/banks.spec.ts',
  status,
  message: status === 'passed' ? '' : `${status}: expected 200, got 500`,
  ...extra,
});
const req = (id: string, verdict: QuotedResult['verdict'], tests: TestOutcome[], extra: Partial<QuotedResult> = {}) =>
  ({ id, level: 'MUST', area: 'directory', section: '', text: '', verdict, tests, ...extra }) as QuotedResult;
const shard = (current: number, total: number, requirements: QuotedResult[]): ConformanceReport => ({
  suite: { name: 'obg-conformance', version: '0.1.0', commit: 'c0ffee', specSha256: 'ab' },
  target: { baseUrl: 'http://127.0.0.1:1', profile: 'reference', embedded: false },
  startedAt: `2026-11-22T01:0${current}:00.000Z`,
  finishedAt: `2026-11-22T01:1${current}:00.000Z`,
  verdict: 'conformant',
  totals: { passed: 0, failed: 0, warning: 0, skipped: 0, broken: 0, blocked: 0, untested: 0 },
  scope: { narrowed: false, projects: [], shard: { current, total } },
  requirements,
});

test('a requirement judged in several shards folds as in one run: its tests from every shard, worst first', () => {
  const merged = mergeReports([
    shard(1, 2, [
      req('directory.aspsps.list-shape', 'passed', [t('passed')]),
      req('directory.aspsp.detail-matches-list', 'passed', [t('passed')]),
      req('directory.aspsps.filter-country', 'blocked', [t('blocked', { blockedBy: 'directory.aspsps.list-shape' })], {
        blockedBy: ['directory.aspsps.list-shape'],
      }),
    ]),
    shard(2, 2, [
      req('directory.aspsps.list-shape', 'failed', [t('failed')]),
      req('directory.aspsp.detail-matches-list', 'passed', [t('passed')]),
      req('directory.aspsps.filter-country', 'passed', [t('passed')]),
    ]),
  ]);
  const byId = new Map(merged.requirements.map((q) => [q.id, q]));
  expect(byId.get('directory.aspsps.list-shape')).toMatchObject({
    verdict: 'failed',
    tests: [t('passed'), t('failed')],
  });
  expect(byId.get('directory.aspsp.detail-matches-list')?.verdict).toBe('passed');
  expect(byId.get('directory.aspsps.filter-country')).toMatchObject({
    verdict: 'blocked',
    blockedBy: ['directory.aspsps.list-shape'],
  });
  expect(merged.verdict).toBe('not-conformant');
  expect(merged.scope).toEqual({ narrowed: false, projects: [], shard: null });
  // The area's other requirements, which no shard judged, are reported as a whole run would: untested here.
  expect(merged.totals.untested).toBeGreaterThan(0);
  expect(merged.startedAt).toBe('2026-11-22T01:01:00.000Z');
  expect(merged.finishedAt).toBe('2026-11-22T01:12:00.000Z');
});

test('a missing or doubled shard makes the merged run incomplete; shards of another commit are refused', () => {
  const one = shard(1, 2, [req('directory.aspsps.list-shape', 'passed', [t('passed')])]);
  const lone = mergeReports([one]);
  expect(lone.verdict).toBe('incomplete');
  expect(lone.errors).toEqual(['the shards are not one whole run: got 1/2 of 2']);
  expect(mergeReports([one, one]).errors).toEqual(['the shards are not one whole run: got 1/2, 1/2 of 2']);
  const other = { ...shard(2, 2, []), suite: { ...one.suite, commit: 'beef' } };
  expect(() => mergeReports([one, other])).toThrow(/do not belong to one run/);
});
