import { stripVTControlCharacters } from 'node:util';
import { relative } from 'node:path';
import type { TestCase, TestResult } from '@playwright/test/reporter';
import type { Requirement } from '../catalogue.js';
import { fromRoot } from '../config/paths.js';
import { blockedBy, isBrokenMessage, isSuiteError } from '../http/broken.js';
import { REQUIREMENT_ANNOTATION } from '../req.js';
import { toResult, type RequirementResult, type TestOutcome } from './verdicts.js';

/** The requirement ids a test names (through `req(...)`). */
export const requirementsOf = (test: TestCase): string[] =>
  test.annotations.filter((a) => a.type === REQUIREMENT_ANNOTATION && a.description).map((a) => a.description!);

/** One test's verdict: a timeout, an interruption or a TargetBroken error is "broken", not "failed". */
export function testOutcome(test: TestCase, result: TestResult): TestOutcome {
  const file = relative(fromRoot(), test.location.file);
  // The title path below the project and the file: describes, then the test.
  const title = test.titlePath().slice(3).join(' › ') || test.title;
  const message = stripVTControlCharacters(
    result.errors.map((e) => e.message ?? e.value ?? '').join('\n') ||
      (result.status === 'skipped' ? (test.annotations.find((a) => a.type === 'skip')?.description ?? 'skipped') : ''),
  ).slice(0, 4000);
  switch (result.status) {
    case 'passed':
      return { title, file, status: 'passed', message: '' };
    case 'skipped':
      return { title, file, status: 'skipped', message };
    case 'timedOut':
      return {
        title,
        file,
        status: 'broken',
        message: `the test did not finish in ${test.timeout} ms (target too slow or hung). ${message}`,
      };
    case 'interrupted':
      return { title, file, status: 'broken', message: `interrupted. ${message}` };
    default: {
      if (isBrokenMessage(message)) return { title, file, status: 'broken', message };
      // The harness's own exception is no verdict on the target; its stack goes with it.
      if (isSuiteError(message)) {
        const stack = stripVTControlCharacters(result.errors.map((e) => e.stack ?? '').join('\n')).slice(0, 4000);
        return {
          title,
          file,
          status: 'broken',
          message: `suite error (not a verdict on the target): ${stack || message}`,
        };
      }
      // A failed step another requirement judges: blocked, unless this test judges that requirement itself.
      const by = blockedBy(message);
      if (by && !requirementsOf(test).includes(by)) return { title, file, status: 'blocked', message, blockedBy: by };
      return { title, file, status: 'failed', message };
    }
  }
}

/**
 * Folds test outcomes into one verdict per requirement in scope. A requirement no test judged
 * is "untested", or "skipped" (not claimed) when the profile does not claim its features.
 */
export function foldRequirements(
  inScope: Requirement[],
  outcomes: Iterable<{ test: TestCase; result: TestResult }>,
  claimed: ReadonlySet<string>,
): RequirementResult[] {
  const byReq = new Map<string, TestOutcome[]>();
  for (const { test, result } of outcomes) {
    const outcome = testOutcome(test, result);
    for (const id of requirementsOf(test)) {
      if (!byReq.has(id)) byReq.set(id, []);
      byReq.get(id)!.push(outcome);
    }
  }
  return inScope.map((r) => {
    const res = toResult(r, byReq.get(r.id) ?? []);
    if (res.verdict === 'untested' && r.features.some((f) => !claimed.has(f))) {
      res.verdict = 'skipped';
      res.tests = [
        {
          title: '(no test ran)',
          file: '',
          status: 'skipped',
          message: `not claimed: ${r.features.filter((f) => !claimed.has(f)).join(', ')}`,
        },
      ];
    }
    return res;
  });
}
