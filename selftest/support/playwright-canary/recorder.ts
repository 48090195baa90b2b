import { writeFileSync } from 'node:fs';
import type { Reporter, TestCase, TestResult, TestStep } from '@playwright/test/reporter';

/** One test's result as the canary tests read it. */
export interface CanaryResult {
  title: string;
  status: string;
  expectedStatus: string;
  outcome: string;
  workerIndex: number;
  annotations: string[];
  /** `type=description` of each annotation. */
  notes: string[];
  attachments: string[];
  /** Every step of the test, hooks and fixtures included, at any depth. */
  steps: string[];
}

/** Records every result of the canary run, after the suite's outcome reporter, to CANARY_DIR/results.json. */
export default class CanaryRecorder implements Reporter {
  private readonly results: CanaryResult[] = [];
  private readonly steps = new Map<TestResult, string[]>();

  printsToStdio() {
    return false;
  }

  onStepBegin(_test: TestCase, result: TestResult, step: TestStep) {
    const list = this.steps.get(result) ?? [];
    list.push(`${step.category}: ${step.title}`);
    this.steps.set(result, list);
  }

  onTestEnd(test: TestCase, result: TestResult) {
    this.results.push({
      title: test.title,
      status: result.status,
      expectedStatus: test.expectedStatus,
      outcome: test.outcome(),
      workerIndex: result.workerIndex,
      annotations: [...test.annotations, ...result.annotations].map((a) => a.type),
      notes: [...test.annotations, ...result.annotations].map((a) => `${a.type}=${a.description ?? ''}`),
      attachments: result.attachments.map((a) => a.name),
      steps: this.steps.get(result) ?? [],
    });
  }

  onEnd() {
    writeFileSync(`${process.env.CANARY_DIR}/results.json`, JSON.stringify(this.results, null, 1));
  }
}
