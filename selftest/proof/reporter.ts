import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Reporter, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { loadCatalogue } from '../../harness/catalogue/catalogue.js';
import { loadProfile } from '../../harness/config/profile.js';
import { PROOF_ANNOTATION, type ProofPlan } from '../../harness/proof.js';
import { foldRequirements, requirementsOf } from '../../harness/reporter/fold.js';
import type { RequirementResult } from '../../harness/reporter/verdicts.js';
import { ENV } from '../../harness/config/env-names.mjs';

/** What the run found for one case: a verdict per requirement its tests name, and where its time went. */
export interface CaseVerdicts {
  id: string;
  requirements: RequirementResult[];
  tests: number;
  /** When its first test started and its last one ended, in seconds from the start of the run. */
  from: number;
  to: number;
  /** The tests' own time added up, in seconds. */
  testSeconds: number;
  slowest: { title: string; ms: number; status: string }[];
}

/** The file the reporter writes beside the plan. */
export const verdictsFile = (planFile: string) => join(dirname(planFile), 'verdicts.json');
/** The run's errors outside any test (a file that did not load), beside the verdicts. */
export const runErrorsFile = (planFile: string) => join(dirname(planFile), 'errors.json');

type Outcome = { test: TestCase; result: TestResult };
const seconds = (ms: number) => Math.round(ms / 100) / 10;

/**
 * Groups the results by the case each test ran for (the PROOF_ANNOTATION the harness declared
 * it under) and folds each group into verdicts, as the conformance reporter folds a run of its
 * own narrowed to the requirements its tests name.
 */
export default class ProofReporter implements Reporter {
  private readonly planFile = process.env[ENV.proofPlan]!;
  private readonly byCase = new Map<string, Outcome[]>();
  private readonly begun = Date.now();
  private readonly errors: string[] = [];

  printsToStdio() {
    return false;
  }

  onError(error: TestError) {
    this.errors.push((error.message ?? error.value ?? 'an error').split('\n').slice(0, 3).join(' '));
  }

  onTestEnd(test: TestCase, result: TestResult) {
    const id = test.annotations.find((a) => a.type === PROOF_ANNOTATION)?.description;
    if (!id) return;
    if (!this.byCase.has(id)) this.byCase.set(id, []);
    this.byCase.get(id)!.push({ test, result });
  }

  onEnd() {
    const plan = JSON.parse(readFileSync(this.planFile, 'utf8')) as ProofPlan;
    const catalogue = loadCatalogue();
    const claimed = new Set(loadProfile(process.env.TARGET_PROFILE || 'reference').features);
    const out: CaseVerdicts[] = plan.entries.map((e) => {
      const outcomes = this.byCase.get(e.id) ?? [];
      const named = new Set(outcomes.flatMap((o) => requirementsOf(o.test)));
      const starts = outcomes.map((o) => o.result.startTime.getTime() - this.begun);
      const ends = outcomes.map((o) => o.result.startTime.getTime() + o.result.duration - this.begun);
      return {
        id: e.id,
        requirements: foldRequirements(
          catalogue.all.filter((r) => named.has(r.id)),
          outcomes,
          claimed,
          // A case runs the files of what it concerns: a control outside them is judged by the green run.
          { unrunControls: 'keep' },
        ),
        tests: outcomes.length,
        from: outcomes.length ? seconds(Math.min(...starts)) : 0,
        to: outcomes.length ? seconds(Math.max(...ends)) : 0,
        testSeconds: seconds(outcomes.reduce((n, o) => n + o.result.duration, 0)),
        slowest: [...outcomes]
          .sort((a, b) => b.result.duration - a.result.duration)
          .slice(0, 5)
          .map((o) => ({
            title: o.test.titlePath().slice(3).join(' › '),
            ms: o.result.duration,
            status: o.result.status,
          })),
      };
    });
    writeFileSync(verdictsFile(this.planFile), JSON.stringify(out));
    writeFileSync(runErrorsFile(this.planFile), JSON.stringify(this.errors));
  }
}
