import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import type { TestCase, TestResult } from '@playwright/test/reporter';
import { loadCatalogue } from '../../harness/catalogue/catalogue.js';
import { fromRoot } from '../../harness/config/paths.js';
import { Blocked, prerequisite, TargetBroken } from '../../harness/http/broken.js';
import { REQUIREMENT_ANNOTATION } from '../../harness/catalogue/req.js';
import { foldRequirements, testOutcome } from '../../harness/reporter/fold.js';
import { ORDER, runVerdict, skipsOf } from '../../harness/reporter/verdicts.js';

const catalogue = loadCatalogue();
const musts = catalogue.all.filter((r) => r.level === 'MUST');
const [root, dependent] = [musts[0], musts[1]];

const testCase = (ids: string[]) =>
  ({
    location: { file: fromRoot('tests', 'x.spec.ts'), line: 1, column: 1 },
    titlePath: () => ['', 'conformance', 'x.spec.ts', 'a check'],
    title: 'a check',
    timeout: 1000,
    annotations: ids.map((id) => ({ type: REQUIREMENT_ANNOTATION, description: id })),
  }) as unknown as TestCase;
const failedWith = (message: string, stack = message) =>
  ({ status: 'failed', errors: [{ message, stack }], duration: 1, startTime: new Date() }) as unknown as TestResult;

test('a failed prerequisite blocks the checks that needed it, and fails the check that judges it', async () => {
  const error = await prerequisite(root.id, 'the SCA ends', async () => {
    throw new Error('SCA status did not reach a terminal status within 30000 ms');
  }).catch((e: Error) => e);
  expect(error).toBeInstanceOf(Blocked);
  const result = failedWith(error.message);
  expect(testOutcome(testCase([dependent.id]), result)).toMatchObject({ status: 'blocked', blockedBy: root.id });
  expect(testOutcome(testCase([root.id]), result).status).toBe('failed');
  // A broken target stays broken through a prerequisite.
  const broken = await prerequisite(root.id, 'step', async () => {
    throw new TargetBroken('connection reset');
  }).catch((e: Error) => e);
  expect(broken).toBeInstanceOf(TargetBroken);
});

test('a blocked requirement names its root cause; the run is not conformant because the root cause failed', () => {
  const outcomes = [
    { test: testCase([root.id]), result: failedWith(`[blocked by ${root.id}] the SCA ends: no end`) },
    { test: testCase([dependent.id]), result: failedWith(`[blocked by ${root.id}] the SCA ends: no end`) },
  ];
  const results = foldRequirements([root, dependent], outcomes, new Set(catalogue.all.flatMap((r) => r.features)));
  expect(results.map((r) => [r.id, r.verdict, r.blockedBy])).toEqual([
    [root.id, 'failed', undefined],
    [dependent.id, 'blocked', [root.id]],
  ]);
  expect(runVerdict(results)).toBe('not-conformant');
  // Blocked alone (its root cause passed elsewhere or was not judged) is incomplete, never conformant.
  expect(runVerdict(results.slice(1))).toBe('incomplete');
});

test("the suite's own exception is broken with its stack, never a verdict on the target", () => {
  const outcome = testOutcome(
    testCase([dependent.id]),
    failedWith('TypeError: Invalid URL', 'TypeError: Invalid URL\n    at resolveLink (harness/http/links.ts:10:3)'),
  );
  expect(outcome.status).toBe('broken');
  expect(outcome.message).toContain('suite error');
  expect(outcome.message).toContain('resolveLink');
  expect(testOutcome(testCase([dependent.id]), failedWith('Error: expect(received).toBe(expected)')).status).toBe(
    'failed',
  );
});

test('one fold for every level: a judged outcome outranks blocked and broken, for a SHOULD as for a MUST', () => {
  const should = catalogue.all.find((r) => r.level === 'SHOULD')!;
  const blocked = (id: string) => ({
    test: testCase([id]),
    result: failedWith(`[blocked by ${root.id}] the consent is created: HTTP 404`),
  });
  const failed = (id: string) => ({ test: testCase([id]), result: failedWith('Error: expected HTTP 400; got 200') });
  const timedOut = (id: string) => ({
    test: testCase([id]),
    result: { status: 'timedOut', errors: [], duration: 1, startTime: new Date() } as unknown as TestResult,
  });
  const passed = (id: string) => ({
    test: testCase([id]),
    result: { status: 'passed', errors: [], duration: 1, startTime: new Date() } as unknown as TestResult,
  });
  const claimed = new Set(catalogue.all.flatMap((r) => r.features));
  const fold = (r: typeof should, outcomes: ReturnType<typeof passed>[]) => {
    const [res] = foldRequirements([r], outcomes, claimed);
    return [res.verdict, res.blockedBy];
  };
  // Warned on one operation, blocked on another: warning, as a MUST reads failed.
  expect(fold(should, [blocked(should.id), failed(should.id)])).toEqual(['warning', undefined]);
  expect(fold(dependent, [blocked(dependent.id), failed(dependent.id)])).toEqual(['failed', undefined]);
  expect(fold(should, [timedOut(should.id), failed(should.id)])).toEqual(['warning', undefined]);
  // Blocked where nothing failed, passed parts or not: never shown passed on part of its operations.
  expect(fold(should, [blocked(should.id), passed(should.id)])).toEqual(['blocked', [root.id]]);
  expect(fold(dependent, [blocked(dependent.id), passed(dependent.id)])).toEqual(['blocked', [root.id]]);
  expect(fold(should, [passed(should.id)])).toEqual(['passed', undefined]);
  // The order itself, one for both levels: failed and warning ahead of broken and blocked.
  expect(ORDER.indexOf('warning')).toBeLessThan(ORDER.indexOf('broken'));
  expect(ORDER.indexOf('warning')).toBeLessThan(ORDER.indexOf('blocked'));
  expect(ORDER.indexOf('failed')).toBeLessThan(ORDER.indexOf('blocked'));
});

test('an unclaimed requirement never blocks a claimed one: the check is not judged, naming the step', () => {
  const unclaimedRoot = catalogue.all.find(
    (r) => r.features.length > 0 && !dependent.features.some((f) => r.features.includes(f)),
  )!;
  const claimed = new Set(catalogue.all.flatMap((r) => r.features).filter((f) => !unclaimedRoot.features.includes(f)));
  const [res] = foldRequirements(
    [dependent],
    [
      {
        test: testCase([dependent.id]),
        result: failedWith(`[blocked by ${unclaimedRoot.id}] create the authorisation: HTTP 404`),
      },
    ],
    claimed,
  );
  expect(res.verdict).toBe('skipped');
  expect(res.tests[0].message).toMatch(
    new RegExp(
      `^not judged: a step it needs is judged by ${unclaimedRoot.id.replace(/\./g, '\\.')}, which the profile does not claim`,
    ),
  );
  expect(skipsOf([res])).toEqual({ notClaimed: 0, notConfigured: 0, notJudged: 1 });
  // A claimed root still blocks.
  const [claimedRoot] = foldRequirements(
    [dependent],
    [{ test: testCase([dependent.id]), result: failedWith(`[blocked by ${root.id}] a step: HTTP 404`) }],
    new Set(catalogue.all.flatMap((r) => r.features)),
  );
  expect([claimedRoot.verdict, claimedRoot.blockedBy]).toEqual(['blocked', [root.id]]);
});
