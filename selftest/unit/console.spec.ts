import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import {
  clock,
  countsLine,
  countsOf,
  emptyTally,
  LIST_LIMIT,
  oneLine,
  progressLine,
  verdictLines,
  type ReportForConsole,
} from '../../harness/reporter/console-summary.js';
import { skipKind, skipsOf, totalsOf, type RequirementResult } from '../../harness/reporter/verdicts.js';
import { renderMarkdown } from '../../harness/reporter/markdown.js';
import { consoleOf } from '../../harness/config/run-options.mjs';
import { ENV } from '../../harness/config/env-names.mjs';

// The suite's console (harness/reporter/console.ts): its lines come from console-summary.ts.

const req = (
  id: string,
  verdict: RequirementResult['verdict'],
  message = '',
  extra: Partial<RequirementResult> = {},
): RequirementResult => ({
  id,
  level: verdict === 'warning' ? 'SHOULD' : 'MUST',
  area: id.split('.')[0],
  section: 's',
  text: 't',
  verdict,
  tests: [{ title: id, file: 'x.spec.ts', status: verdict === 'untested' ? 'passed' : verdict, message }],
  ...extra,
});

const reportOf = (requirements: RequirementResult[]): ReportForConsole => ({
  verdict: requirements.some((r) => r.verdict === 'failed') ? 'not-conformant' : 'conformant',
  totals: totalsOf(requirements),
  skips: skipsOf(requirements),
  requirements,
});

const HARNESS_FAILURE = [
  'Error: Expected a success (HTTP 2xx); got POST /psd2/consent/v1/consents → 400 (application/json; charset=utf-8) body: {"tppMessages":[{"code":"FORMAT_ERROR","text":"header Date is missing"}]}',
  'Requirement a.create (MUST), Resources > Consent: A valid create consent answers a 2xx.',
].join('\n');

test('a failure in one line: what was expected and what came back, without the requirement text or the media type', () => {
  expect(oneLine(HARNESS_FAILURE)).toBe(
    'Expected a success (HTTP 2xx); got POST /psd2/consent/v1/consents → 400 body: {"tppMessages":[{"code":"FORMAT_ERROR","text":"header Date is missing"}]}',
  );
  // What was done comes first when the message says it.
  expect(oneLine(`Error: frequencyPerDay 4 must be accepted\n\n${HARNESS_FAILURE.slice(7)}`)).toMatch(
    /^frequencyPerDay 4 must be accepted: Expected a success \(HTTP 2xx\); got POST/,
  );
  // Playwright's own matchers: Expected / Received.
  expect(
    oneLine('Error: expect(received).toBe(expected) // Object.is equality\n\nExpected: "valid"\nReceived: "received"'),
  ).toBe('expected "valid", got "received"');
  expect(oneLine('x'.repeat(500), 100)).toHaveLength(100);
  expect(oneLine('')).toBe('(no message)');
});

test("a line takes its title and values from one error, the first; a generated failure's from what came back", () => {
  // Two soft failures: the first's title with the first's values, never the second's.
  const two = [
    'Error: no X-Request-ID: expect(received).toBe(expected)',
    '',
    'Expected: 400',
    'Received: 201',
    'Error: expect(received).toBeDefined()',
    '',
    'Expected: "received"',
    'Received: undefined',
  ].join('\n');
  expect(oneLine(two)).toBe('no X-Request-ID: expect(received).toBe(expected): expected 400, got 201');
  const generated = [
    'Error: Generated property failed: X-BicFi left out is refused',
    'Smallest counterexample (after 2 shrink(s), 10 ms of shrinking; 5 case(s) run):',
    '  {"operation":"consents.create"}',
    'Got: create consent without X-BicFi: expected a refusal (HTTP 4xx carrying no data); got 201 Created',
    'Seed 1, path 0 (run seed 1): `obg-conformance run --seed 1` replays it.',
  ].join('\n');
  expect(oneLine(generated)).toBe(
    'Generated property failed: X-BicFi left out is refused: create consent without X-BicFi: expected a refusal (HTTP 4xx carrying no data); got 201 Created',
  );
});

test('the counts line is read back as the totals and the skips it was made from', () => {
  const requirements = [
    req('a.one', 'passed'),
    req('a.two', 'failed', HARNESS_FAILURE),
    req('a.three', 'warning', 'Expected HTTP 201; got 400'),
    req('a.four', 'blocked', '[blocked by a.two] …', { blockedBy: ['a.two'] }),
    req('a.five', 'skipped', 'not claimed: the profile "profiles/bank.json" does not claim x'),
    req('a.six', 'skipped', 'not configured: SECOND_CLIENT_ID and SECOND_CLIENT_SECRET name no second TPP'),
    req('a.seven', 'skipped', 'not judged: its positive control a.eight was not judged here'),
    req('a.eight', 'skipped', 'not applicable: the bank created the authorisation itself'),
    req('a.nine', 'untested'),
    req('a.ten', 'broken', 'Error: [target broken] timeout'),
  ];
  const r = reportOf(requirements);
  expect(r.skips).toEqual({ notClaimed: 1, notConfigured: 1, notJudged: 2 });
  expect(countsLine(r)).toBe(
    'requirements: 1 passed, 1 failed, 1 warning, 1 broken, 1 blocked, 1 untested; not run here: 1 not claimed, 1 not configured, 2 not judged',
  );
  expect(countsOf(`noise\n${countsLine(r)}\nmore noise`)).toEqual({ totals: r.totals, skips: r.skips });
  expect(countsOf('no counts here')).toBeUndefined();
});

test('not claimed wins over not configured, which wins over not judged', () => {
  const both = req('a.one', 'skipped', 'not judged: x');
  both.tests.push({ title: 'b', file: 'x', status: 'skipped', message: 'not claimed: y' });
  expect(skipKind(both)).toBe('notClaimed');
  expect(skipKind(req('a.two', 'skipped', 'skipped'))).toBe('notJudged');
});

test('the last lines: the verdict, the counts, a line per failed MUST, then each root cause with the checks it blocks', () => {
  const requirements = [
    req('a.create', 'failed', HARNESS_FAILURE),
    req('a.read', 'blocked', '[blocked by a.create]', { blockedBy: ['a.create'] }),
    req('a.status', 'blocked', '[blocked by a.create]', { blockedBy: ['a.create'] }),
    req('a.pay', 'blocked', '[blocked by b.token]', { blockedBy: ['b.token'] }),
    req('a.code', 'warning', 'Expected HTTP 201; got 400'),
  ];
  const lines = verdictLines(reportOf(requirements));
  expect(lines).toEqual([
    'verdict: NOT-CONFORMANT',
    countsLine(reportOf(requirements)),
    'failed MUSTs (1): the requirement, what was expected and what came back',
    `  a.create: ${oneLine(HARNESS_FAILURE)}`,
    'root causes (2) of the 3 blocked: each with the number of checks it blocks',
    '  a.create (failed) blocks 2',
    '  b.token (not in this run) blocks 1',
    "hint: the bank's answers name the header Date as required (1 requirement): if the bank wants it on every call, declare it in the profile's requiredHeaders (docs/profiles.md)",
    'warnings: 1 SHOULDs not met, listed in conformance.md',
  ]);
  // Broken ones that share their message are one line (a target down for every check).
  const down = ['a.one', 'a.two', 'a.three'].map((id) =>
    req(id, 'broken', '[target broken] target unavailable: reset'),
  );
  expect(
    verdictLines(reportOf([...down, req('a.four', 'broken', 'suite error (not a verdict on the target): x')])),
  ).toEqual([
    'verdict: CONFORMANT',
    countsLine(reportOf([...down, req('a.four', 'broken', 'suite error (not a verdict on the target): x')])),
    'broken (4): the target answered nothing usable, or the suite failed',
    '  3 requirements (a.one, a.two, a.three, …): [target broken] target unavailable: reset',
    '  a.four: suite error (not a verdict on the target): x',
  ]);
  // What changed since the previous run of the same target and profile content, in one line.
  const since = verdictLines({
    ...reportOf([req('a.one', 'blocked', '', { blockedBy: ['a.two'] }), req('a.two', 'failed', 'Expected x; got y')]),
    changes: {
      previous: { finishedAt: '2026-11-21T00:00:00Z', verdict: 'conformant', source: 'history/' },
      newlyFailing: [{ id: 'a.two', verdict: 'failed', was: 'passed' }],
      noLongerJudged: [{ id: 'a.one', verdict: 'blocked', was: 'passed' }],
      newlyPassing: [],
      changedMessages: [],
      flaky: [],
      window: 10,
    },
  });
  expect(since).toContain(
    'since the run of 2026-11-21T00:00:00Z (conformant): 1 newly failing: a.two; 1 no longer judged: a.one; 0 newly passing',
  );
  const nothing = verdictLines({
    ...reportOf([req('a.one', 'passed')]),
    changes: {
      previous: { finishedAt: '2026-11-21T00:00:00Z', verdict: 'conformant', source: 'history/' },
      newlyFailing: [],
      noLongerJudged: [],
      newlyPassing: [],
      changedMessages: [],
      flaky: [],
      window: 10,
    },
  });
  expect(nothing).toContain('since the run of 2026-11-21T00:00:00Z (conformant): no verdict and no message changed');
  // A long list stops at its limit and says where the rest is.
  const many = Array.from({ length: LIST_LIMIT.failed + 5 }, (_, i) => req(`a.f${i}`, 'failed', 'Expected x; got y'));
  const long = verdictLines(reportOf(many));
  expect(long).toContain('  … and 5 more in conformance.md');
  expect(long.length).toBe(2 + 1 + LIST_LIMIT.failed + 1);
});

test('the progress line: done of total, passed, failed, blocked, elapsed and the time left', () => {
  const t = { ...emptyTally(), passed: 10, failed: 2, blocked: 3, warning: 1, skipped: 4 };
  expect(progressLine(20, 80, t, 60_000)).toBe(
    'tests 20/80: 10 passed, 2 failed, 3 blocked, 1 warned, 4 not run; 1:00 elapsed, about 3:00 left',
  );
  expect(progressLine(80, 80, t, 61_000)).toBe(
    'tests 80/80: 10 passed, 2 failed, 3 blocked, 1 warned, 4 not run; 1:01 elapsed',
  );
  expect(clock(3_723_000)).toBe('1:02:03');
});

test("the console setting: the suite's console by default, Playwright's list when asked, a clear error otherwise", () => {
  const cwd = '/nonexistent-folder';
  expect(consoleOf({}, cwd)).toEqual({ console: 'suite' });
  expect(consoleOf({ [ENV.console]: 'playwright-list' }, cwd)).toEqual({ console: 'playwright-list' });
  expect(consoleOf({ [ENV.console]: 'dots' }, cwd).error).toBe(
    `${ENV.console}: "dots" is not a console (one of suite, playwright-list; default suite).`,
  );
});

test('conformance.md counts the requirements not run apart and lists each with why', () => {
  const requirements = [
    req('a.one', 'passed'),
    req('a.two', 'skipped', 'not judged: the list is answered with a download link'),
    req('a.three', 'skipped', 'not claimed: the profile "profiles/bank.json" does not claim x'),
    req('a.four', 'skipped', 'not configured: SECOND_CLIENT_ID and SECOND_CLIENT_SECRET name no second TPP'),
  ];
  const md = renderMarkdown({
    suite: { name: 'obg-conformance', version: '0', commit: '0'.repeat(40), specSha256: '0'.repeat(64) },
    target: { baseUrl: 'https://bank.example', profile: 'profiles/bank.json', embedded: false },
    startedAt: '2026-11-22T00:00:00Z',
    finishedAt: '2026-11-22T00:01:00Z',
    verdict: 'conformant',
    totals: totalsOf(requirements),
    skips: skipsOf(requirements),
    requirements,
  });
  expect(md).toContain(
    '3 skipped, 0 broken, 0 blocked, 0 untested (skipped: 1 not claimed, 1 not configured, 1 not judged)',
  );
  expect(md).toContain('## Not run here: not claimed, not configured, not judged');
  const rows = md.split('\n').filter((l) => /^\| `a\./.test(l));
  expect(rows.map((l) => l.split(' | ')[2])).toEqual(['not claimed', 'not configured', 'not judged']);
});

test('refusals whose answers name a header point at the profile requiredHeaders, read only from the bank own words', () => {
  const r = reportOf([
    req('a.create', 'failed', HARNESS_FAILURE),
    req('a.read', 'blocked', HARNESS_FAILURE.replace('header Date is missing', 'Date header is required')),
    req('a.other', 'failed', 'Error: the X-Request-ID header is missing from the answer; got 201'),
  ]);
  const hints = verdictLines(r).filter((l) => l.startsWith('hint:'));
  expect(hints).toEqual([
    "hint: the bank's answers name the header Date as required (2 requirements): if the bank wants it on every call, declare it in the profile's requiredHeaders (docs/profiles.md)",
  ]);
  expect(verdictLines(reportOf([req('a.create', 'passed')])).some((l) => l.startsWith('hint:'))).toBe(false);
  // A requirement about that very header leaves it out on purpose: its answer is no hint.
  const onPurpose = reportOf([
    req(
      'a.consent.missing-code',
      'warning',
      'Error: Expected HTTP 400; got 401 body: {"text":"Consent-ID header is required"}',
      {
        text: 'A read without Consent-ID is answered 400 with tppMessages code FORMAT_ERROR.',
      },
    ),
  ]);
  expect(verdictLines(onPurpose).some((l) => l.startsWith('hint:'))).toBe(false);
});

test('a failure blocked by its own requirement reads without naming itself', () => {
  expect(oneLine('Blocked: [blocked by a.create] create the consent: expected a 2xx; got 400')).toBe(
    'create the consent: expected a 2xx; got 400',
  );
});
