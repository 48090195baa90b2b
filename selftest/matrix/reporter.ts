import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { loadCatalogue } from '../../harness/catalogue.js';
import { loadProfile } from '../../harness/config/profile.js';
import { foldRequirements } from '../../harness/reporter/fold.js';
import type { RequirementResult } from '../../harness/reporter/verdicts.js';
import { PLAN_ENV, type MatrixPlan } from './plan.js';

/** What the child run found for one fault: a verdict per requirement of the fault's areas. */
export interface FaultVerdicts {
  fault: string;
  /** Set when the run could not judge this fault at all (no test of its areas ran). */
  error?: string;
  requirements: RequirementResult[];
  tests: number;
  /** When its first test started and its last one ended, in seconds from the start of the run (its span is to - from). */
  from: number;
  to: number;
  /** The tests' own time added up (what the fault costs the workers), in seconds. */
  testSeconds: number;
  /** Its slowest tests, for a look at what a long matrix spends its time on. */
  slowest: { title: string; ms: number; status: string }[];
}

type Outcome = { test: TestCase; result: TestResult };

/** Folds the matrix run's results into one set of verdicts per fault (as the conformance reporter would for a run of its own). */
export default class MatrixReporter implements Reporter {
  private readonly byFault = new Map<string, Outcome[]>();
  private readonly begun = Date.now();

  printsToStdio() {
    return false;
  }

  private readonly plan = JSON.parse(readFileSync(process.env[PLAN_ENV]!, 'utf8')) as MatrixPlan;
  private readonly faultOfDir = new Map(this.plan.faults.map((f) => [f.dir, f.id]));

  onTestEnd(test: TestCase, result: TestResult) {
    // The wrapper file's folder names the fault: <specsDir>/<dir>/<area>/<file>.spec.ts.
    let file: Suite | undefined = test.parent;
    while (file && file.type !== 'file') file = file.parent;
    const dir = file ? relative(this.plan.specsDir, file.location?.file ?? '').split(sep)[0] : undefined;
    const fault = dir ? this.faultOfDir.get(dir) : undefined;
    if (!fault) return;
    if (!this.byFault.has(fault)) this.byFault.set(fault, []);
    this.byFault.get(fault)!.push({ test, result });
  }

  async onEnd(_result: FullResult) {
    const plan = this.plan;
    const catalogue = loadCatalogue();
    const claimed = new Set(loadProfile(process.env.TARGET_PROFILE || 'reference').features);
    const dir = join(plan.outDir, 'verdicts');
    mkdirSync(dir, { recursive: true });
    for (const f of plan.faults) {
      const outcomes = this.byFault.get(f.id) ?? [];
      const areas = new Set(f.projects);
      const starts = outcomes.map((o) => o.result.startTime.getTime());
      const ends = outcomes.map((o) => o.result.startTime.getTime() + o.result.duration);
      const verdicts: FaultVerdicts = {
        fault: f.id,
        error: outcomes.length ? undefined : 'no test of its areas ran',
        requirements: foldRequirements(
          catalogue.all.filter((r) => areas.has(r.area)),
          outcomes,
          claimed,
        ),
        tests: outcomes.length,
        from: outcomes.length ? Math.round((Math.min(...starts) - this.begun) / 100) / 10 : 0,
        to: outcomes.length ? Math.round((Math.max(...ends) - this.begun) / 100) / 10 : 0,
        testSeconds: Math.round(outcomes.reduce((n, o) => n + o.result.duration, 0) / 100) / 10,
        slowest: [...outcomes]
          .sort((a, b) => b.result.duration - a.result.duration)
          .slice(0, 5)
          .map((o) => ({
            title: `${o.test.location.file.split('/tests/')[1] ?? o.test.location.file}:${o.test.location.line} ${o.test.title}`,
            ms: o.result.duration,
            status: o.result.status,
          })),
      };
      writeFileSync(join(dir, `${f.id}.json`), JSON.stringify(verdicts));
    }
  }
}
