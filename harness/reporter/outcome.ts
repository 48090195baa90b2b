import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { restoreOutcome } from '../playwright-internals/kept-worker.js';

export { KEPT_WORKER_ANNOTATION, keptWorker } from '../playwright-internals/kept-worker.js';

/**
 * First of the run's reporters: gives a failure whose worker was kept its real outcome back, so
 * that JUnit, Playwright's list (when asked), Allure and the conformance report all see an
 * ordinary failure, with its message and evidence (harness/playwright-internals/kept-worker.ts says
 * how and why).
 */
export default class OutcomeReporter implements Reporter {
  printsToStdio() {
    return false;
  }

  onTestEnd(test: TestCase, result: TestResult) {
    restoreOutcome(test, result);
  }
}
