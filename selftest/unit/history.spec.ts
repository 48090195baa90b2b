import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { profileLabel, profileSha256 } from '../../harness/config/profile.js';
import {
  compareRuns,
  loadHistory,
  nightlySummary,
  pastOfRun,
  recordOf,
  recordRun,
  renderChanges,
  sameTarget,
  type HistoryRecord,
  type RunTarget,
} from '../../harness/reporter/history.js';
import { totalsOf, type RequirementResult, type RequirementVerdict } from '../../harness/reporter/verdicts.js';

// The history compares a run with earlier runs of the same target and the same profile content
// (harness/reporter/history.ts); a requirement that is no longer judged is not a new failure.

const BANK: RunTarget = { baseUrl: 'https://bank.example', profile: 'profiles/bank.json', embedded: false };
const withContent = (sha: string, t: RunTarget = BANK): RunTarget => ({ ...t, profileSha256: sha });

const record = (
  finishedAt: string,
  v: Record<string, RequirementVerdict>,
  target = withContent('a'),
): HistoryRecord => ({
  finishedAt,
  verdict: 'not-conformant',
  target,
  requirements: Object.fromEntries(Object.entries(v).map(([id, verdict]) => [id, { verdict }])),
});

const report = (finishedAt: string, v: Record<string, RequirementVerdict>, target = withContent('a')) => {
  const requirements = Object.entries(v).map(([id, verdict]): RequirementResult => ({
    id,
    level: 'MUST',
    area: 'a',
    section: 's',
    text: 't',
    verdict,
    tests: [{ title: id, file: 'x', status: verdict === 'untested' ? 'passed' : verdict, message: `${id} ${verdict}` }],
  }));
  return {
    target,
    startedAt: finishedAt,
    finishedAt,
    verdict: 'not-conformant' as const,
    totals: totalsOf(requirements),
    requirements,
  };
};

test('a requirement that moved to blocked, untested or not run is no longer judged, not a new failure', () => {
  const previous = record('2026-11-21T00:00:00Z', {
    toBlocked: 'passed',
    failedToBlocked: 'failed',
    toUntested: 'passed',
    toSkipped: 'warning',
    toFailed: 'passed',
    blockedToFailed: 'blocked',
    blockedToPassed: 'blocked',
    stillBlocked: 'blocked',
  });
  const current = record('2026-11-22T00:00:00Z', {
    toBlocked: 'blocked',
    failedToBlocked: 'blocked',
    toUntested: 'untested',
    toSkipped: 'skipped',
    toFailed: 'failed',
    blockedToFailed: 'failed',
    blockedToPassed: 'passed',
    stillBlocked: 'blocked',
  });
  const c = compareRuns(current, previous, [previous], 10);
  expect(c.noLongerJudged).toEqual([
    { id: 'toBlocked', verdict: 'blocked', was: 'passed' },
    { id: 'failedToBlocked', verdict: 'blocked', was: 'failed' },
    { id: 'toUntested', verdict: 'untested', was: 'passed' },
    { id: 'toSkipped', verdict: 'skipped', was: 'warning' },
  ]);
  expect(c.newlyFailing).toEqual([
    { id: 'toFailed', verdict: 'failed', was: 'passed' },
    { id: 'blockedToFailed', verdict: 'failed', was: 'blocked' },
  ]);
  expect(c.newlyPassing).toEqual([{ id: 'blockedToPassed', was: 'blocked' }]);
  expect(c.changedMessages).toEqual([]);

  const md = renderChanges(c).join('\n');
  expect(md).toContain('No longer judged');
  expect(md).toContain('`toBlocked`: passed → blocked');
  const s = nightlySummary(report('2026-11-22T00:00:00Z', { toBlocked: 'blocked', toFailed: 'failed' }), c);
  expect(s.newFailures).toEqual(['toFailed', 'blockedToFailed']);
  expect(s.noLongerJudged).toEqual(['toBlocked', 'failedToBlocked', 'toUntested', 'toSkipped']);
  expect(s.line).toContain('; new failures: toFailed, blockedToFailed; no longer judged: toBlocked, failedToBlocked');
  expect(s.line).not.toMatch(/new failures:[^;]*toBlocked/);
});

test('a requirement blocked between two passes did not flip: not flaky', () => {
  const past = [
    record('2026-11-19T00:00:00Z', { x: 'passed', y: 'passed' }),
    record('2026-11-20T00:00:00Z', { x: 'blocked', y: 'failed' }),
    record('2026-11-21T00:00:00Z', { x: 'passed', y: 'passed' }),
  ];
  const current = record('2026-11-22T00:00:00Z', { x: 'blocked', y: 'failed' });
  expect(compareRuns(current, past.at(-1), past, 10).flaky).toEqual([
    { id: 'y', verdicts: ['passed', 'failed', 'passed', 'failed'] },
  ]);
});

test('the same target is the same address and the same profile content, whatever the profile is named', () => {
  expect(sameTarget(withContent('a'), withContent('a', { ...BANK, profile: 'bank' }))).toBe(true);
  expect(sameTarget(withContent('a'), withContent('b')), 'the same name, another content').toBe(false);
  expect(sameTarget(withContent('a'), withContent('a', { ...BANK, baseUrl: 'https://other.example' }))).toBe(false);
  expect(sameTarget(BANK, BANK), 'no content digest: an older record matches nothing').toBe(false);
  const embedded = (port: number) =>
    withContent('r', { baseUrl: `http://127.0.0.1:${port}`, profile: 'reference', embedded: true });
  expect(sameTarget(embedded(1), embedded(2)), 'the embedded sandbox whatever its port').toBe(true);
});

test('the history of a run: only earlier runs of the same profile content; a replaced profile starts anew', () => {
  const dir = mkdtempSync(join(tmpdir(), 'obg-history-'));
  recordRun(dir, recordOf(report('2026-11-20T00:00:00Z', { r: 'passed' }, withContent('draft'))));
  recordRun(dir, recordOf(report('2026-11-21T00:00:00Z', { r: 'passed' }, withContent('reviewed'))));
  recordRun(dir, recordOf(report('2026-11-21T12:00:00Z', { r: 'passed' }, BANK)));
  expect(loadHistory(dir, withContent('reviewed')).map((h) => h.finishedAt)).toEqual(['2026-11-21T00:00:00Z']);

  // The reviewed profile replaced the draft under the same name: compared with the reviewed runs only.
  const now = report('2026-11-22T00:00:00Z', { r: 'blocked' }, withContent('reviewed'));
  const { changes } = pastOfRun(now, dir, {});
  expect(changes.previous?.finishedAt).toBe('2026-11-21T00:00:00Z');
  expect(changes.noLongerJudged).toEqual([{ id: 'r', verdict: 'blocked', was: 'passed' }]);
  expect(changes.newlyFailing).toEqual([]);

  const fresh = pastOfRun(report('2026-11-22T00:00:00Z', { r: 'failed' }, withContent('new')), dir, {});
  expect(fresh.changes.previous, 'no run of this content yet').toBeUndefined();
  expect(renderChanges(fresh.changes).join('\n')).toContain(
    'No previous run of this target and profile content is recorded.',
  );
});

test('a PREVIOUS_REPORT made with another profile content is compared, and says so', () => {
  const dir = mkdtempSync(join(tmpdir(), 'obg-history-'));
  const file = join(dir, 'previous.json');
  writeFileSync(file, JSON.stringify(report('2026-11-21T00:00:00Z', { r: 'passed' }, withContent('draft'))));
  const { changes } = pastOfRun(report('2026-11-22T00:00:00Z', { r: 'failed' }, withContent('reviewed')), dir, {
    PREVIOUS_REPORT: file,
  });
  expect(changes.previous).toMatchObject({ source: file, otherProfile: 'profiles/bank.json' });
  expect(renderChanges(changes).join('\n')).toContain('made with another profile content (profiles/bank.json)');
});

test("a profile's content digest ignores its layout and key order; its one name is the same however it is set", () => {
  const cwd = mkdtempSync(join(tmpdir(), 'obg-profile-'));
  mkdirSync(join(cwd, 'profiles'));
  writeFileSync(join(cwd, 'profiles', 'bank.json'), '{"name":"bank","features":["consents"]}');
  writeFileSync(join(cwd, 'profiles', 'same.json'), '{\n  "features": [ "consents" ],\n  "name": "bank"\n}\n');
  writeFileSync(join(cwd, 'profiles', 'other.json'), '{"name":"bank","features":["consents","accounts"]}');
  const sha = profileSha256('bank', cwd);
  expect(sha).toMatch(/^[0-9a-f]{64}$/);
  expect(profileSha256('profiles/same.json', cwd)).toBe(sha);
  expect(profileSha256('other', cwd)).not.toBe(sha);
  expect(profileSha256('missing', cwd)).toBeUndefined();
  expect(profileLabel('bank', cwd)).toBe('profiles/bank.json');
  expect(profileLabel('profiles/bank.json', cwd)).toBe('profiles/bank.json');
  expect(profileLabel('./profiles/../profiles/bank.json', cwd)).toBe('profiles/bank.json');
  // The suite's own profile, seen from a working folder without one: its name.
  expect(profileLabel('reference', cwd)).toBe('reference');
});
