import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import type { ConformanceReport } from '../../harness/reporter/report.js';
import { disqualifications, packageName } from '../../harness/reporter/package.js';

const report = (over: Partial<ConformanceReport> = {}): ConformanceReport => ({
  suite: { name: 'obg-conformance', version: '0.1.0', commit: 'c0ffee', specSha256: 'ab' },
  target: { baseUrl: 'https://api.bank.example/psd2', profile: 'reference', embedded: false },
  startedAt: '2026-11-22T01:00:00.000Z',
  finishedAt: '2026-11-22T01:10:00.000Z',
  verdict: 'conformant',
  totals: { passed: 2, failed: 0, warning: 0, skipped: 0, broken: 0, blocked: 0, untested: 0 },
  scope: { narrowed: false, projects: [], shard: null },
  requirements: [],
  ...over,
});

test('a whole conformant run with a valid profile qualifies for certification', () => {
  expect(disqualifications(report())).toEqual([]);
  expect(packageName(report())).toBe('certification_api.bank.example-psd2_reference_2026-11-22.tar.gz');
});

test('certification refuses a narrowed run, a lone shard, a run of chosen areas, and a report without its scope', () => {
  expect(disqualifications(report({ scope: { narrowed: true, projects: [], shard: null } }))).toEqual([
    'the run was narrowed (a grep, a test file, a shard or --last-failed): certification needs the whole suite',
  ]);
  expect(
    disqualifications(report({ scope: { narrowed: false, projects: [], shard: { current: 1, total: 2 } } })),
  ).toEqual(['the run is shard 1 of 2: merge the shards (npm run merge) and certify the merged reports']);
  expect(disqualifications(report({ scope: { narrowed: false, projects: ['directory'], shard: null } }))).toEqual([
    'the run chose areas with --project (directory): certification needs every area',
  ]);
  expect(disqualifications(report({ scope: undefined }))[0]).toContain('does not record the scope');
});

test('certification refuses an invalid profile, a verdict other than conformant, and anything untested, blocked or broken', () => {
  expect(
    disqualifications(report({ target: { baseUrl: 'x', profile: 'no-such-profile', embedded: false } }))[0],
  ).toMatch(/^the profile "no-such-profile" is not valid: /);
  // A profile init drafted and nobody reviewed: its claims are nobody's.
  expect(
    disqualifications(report({ target: { baseUrl: 'x', profile: 'reference', embedded: false, draft: true } })),
  ).toEqual([
    'the profile "reference" is init\'s unreviewed draft ("draft": true): review its claims and remove "draft"',
  ]);
  const r = report({
    verdict: 'incomplete',
    errors: ['a test file did not load'],
    totals: { passed: 1, failed: 0, warning: 0, skipped: 0, broken: 1, blocked: 1, untested: 1 },
    requirements: [
      { id: 'x.broken', level: 'MUST', area: 'x', section: '', text: '', verdict: 'broken', tests: [] },
      { id: 'x.blocked', level: 'MUST', area: 'x', section: '', text: '', verdict: 'blocked', tests: [] },
      { id: 'x.untested', level: 'MUST', area: 'x', section: '', text: '', verdict: 'untested', tests: [] },
    ],
  });
  expect(disqualifications(r)).toEqual([
    'the run had an error: a test file did not load',
    'the verdict is incomplete, not conformant',
    '1 requirement(s) untested: x.untested',
    '1 requirement(s) blocked: x.blocked',
    '1 requirement(s) broken: x.broken',
  ]);
});
