import type { TestInfo } from '@playwright/test';
import type { TestCase, TestResult } from '@playwright/test/reporter';

/**
 * A failure that keeps its worker (docs/playwright-internals.md). Playwright starts a new worker
 * after every unexpected result; a worker of this suite costs about a second of CPU to start, so a
 * run against a failing bank took ten times as long as one against a conforming bank. In the
 * worker, once the test has ended, the harness's first automatic fixture (harness/test.ts,
 * `_keepWorker`) makes the result expected (`keepWorker`), which keeps the worker, and annotates
 * it; the run's first reporter (harness/reporter/outcome.ts) sets a failure's expected status back
 * to passed (`restoreOutcome`), so that every reporter after it, and the run's exit code, see an
 * ordinary failure. Private behaviour: Playwright documents neither a fixture changing
 * `testInfo.expectedStatus` after the test nor a reporter changing `TestCase.expectedStatus`.
 * Canary: selftest/unit/playwright-internals.spec.ts.
 */
export const KEPT_WORKER_ANNOTATION = 'kept-worker';

/** Was this result one the harness kept the worker for? */
export const keptWorker = (test: TestCase, result: TestResult) =>
  [...result.annotations, ...test.annotations].some((a) => a.type === KEPT_WORKER_ANNOTATION);

/**
 * In the worker, after the test (a fixture's teardown, first of the automatic fixtures so torn down
 * last): a plain failure (an assertion, a broken exchange, a harness error) is made an expected
 * failure, and a test declared expected to fail that passed (the self-proof: a case that breaks the
 * rule elsewhere) an expected pass, each annotated. A timeout or an interruption still ends the
 * worker, as Playwright does: the test's code may still be running.
 */
export function keepWorker(testInfo: TestInfo): void {
  if (testInfo.status === 'failed' && testInfo.expectedStatus === 'passed') {
    testInfo.annotations.push({
      type: KEPT_WORKER_ANNOTATION,
      description: 'the test failed; its worker went on to the next test',
    });
    testInfo.expectedStatus = 'failed';
  }
  // Its result is `passed`, which is what the self-proof folds; made expected, it keeps its worker
  // too (an unexpected pass would cost a new worker).
  else if (testInfo.status === 'passed' && testInfo.expectedStatus === 'failed') {
    testInfo.annotations.push({
      type: KEPT_WORKER_ANNOTATION,
      description: 'expected to fail here, the test passed; its worker went on to the next test',
    });
    testInfo.expectedStatus = 'passed';
  }
}

/** In the run's first reporter: a failure whose worker was kept is an ordinary (unexpected) failure again. */
export function restoreOutcome(test: TestCase, result: TestResult): void {
  if (keptWorker(test, result) && test.expectedStatus === 'failed') test.expectedStatus = 'passed';
}
