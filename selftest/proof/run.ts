import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalogue } from '../../harness/catalogue/catalogue.js';
import { fromRoot } from '../../harness/config/paths.js';
import { runDir } from '../support/run-dir.js';
import { sharedJson } from '../support/shared-result.js';
import { recordRun, runPlaywright, suiteEnv } from '../support/run-suite.js';
import { startFront } from './front.js';
import { judgeCase, type ProofRow } from './judge.js';
import { listSuite, planOf, proofScope, selectedCases, type ProofCase } from './plan.js';
import { verdictsFile, type CaseVerdicts } from './reporter.js';
import { ENV } from '../../harness/config/env-names.mjs';
import { scheduled } from '../../harness/config/run-options.mjs';

/** Where the self-proof's run leaves its judged cases for the tests of proof.spec.ts. */
export const PROOF_RESULT = runDir('proof', 'proof.json');

/**
 * The self-proof's run, made once per self-test run (support/shared-result.ts): by its own test
 * (proof.setup.ts) or by the judging tests (proof.spec.ts), whichever comes first. Both files are
 * one project, so the judging tests run in the worker that made the run instead of starting one.
 */
export const proofResult = (): Promise<ProofRun> =>
  sharedJson(PROOF_RESULT, () =>
    runProof({
      cases: selectedCases(),
      outDir: runDir('proof', 'run'),
      scope: proofScope(),
      workers: Number(process.env.SELFTEST_PROOF_WORKERS || 10),
      scaDelayMs: 600,
      timeoutMs: 2_400_000,
    }),
  );

export interface ProofRun {
  rows: ProofRow[];
  scope: 'files' | 'areas';
  workers: number;
  seconds: number;
  /** CPU seconds this process spent meanwhile: the cases' sandboxes and the front that routes to them. */
  sandboxCpuSeconds: number;
  exitCode: number | null;
}

/**
 * The self-proof in one child Playwright run: the plan (one data file) for the harness, every
 * case's sandbox behind one port, the suite's tests declared once per case, then each case
 * judged from the verdicts its tests gave.
 */
export async function runProof(o: {
  cases: ProofCase[];
  outDir: string;
  scope: 'files' | 'areas';
  workers: number;
  scaDelayMs: number;
  timeoutMs: number;
}): Promise<ProofRun> {
  rmSync(o.outDir, { recursive: true, force: true });
  mkdirSync(o.outDir, { recursive: true });
  const started = Date.now();
  const cpu = process.cpuUsage();
  const planFile = join(o.outDir, 'plan.json');
  writeFileSync(planFile, JSON.stringify(planOf(o.cases, listSuite(), o.scope), null, 1));
  const front = await startFront(o.cases, o.scaDelayMs);
  let exitCode: number | null = null;
  let output = '';
  try {
    const env = suiteEnv({ ...front, workers: o.workers, reportsDir: o.outDir });
    env[ENV.proofPlan] = planFile;
    // Verdicts only: no evidence attachments (SELFTEST_PROOF_EVIDENCE=1 keeps them, to compare).
    env[ENV.evidence] = process.env.SELFTEST_PROOF_EVIDENCE === '1' ? 'on' : 'off';
    // In the suite's order of tests (scheduled), as a run of the suite.
    const run = await runPlaywright(scheduled(['-c', fromRoot('selftest', 'proof', 'suite.config.ts')]), {
      env,
      timeoutMs: o.timeoutMs,
      logFile: join(o.outDir, 'output.log'),
    });
    recordRun('proof', run);
    exitCode = run.exitCode;
    output = run.output;
  } finally {
    await front.close();
  }
  const file = verdictsFile(planFile);
  const verdicts = new Map(
    existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as CaseVerdicts[]).map((v) => [v.id, v]) : [],
  );
  const catalogue = loadCatalogue();
  const rows = o.cases.map((c) => {
    const v = verdicts.get(c.id);
    const error = !v
      ? `no verdicts (exit ${exitCode}); output:\n${output.slice(-1500)}`
      : v.tests === 0
        ? 'no test ran for it'
        : undefined;
    return judgeCase(c, v?.requirements ?? [], catalogue, {
      tests: v?.tests ?? 0,
      seconds: v ? Math.round((v.to - v.from) * 10) / 10 : 0,
      error,
    });
  });
  const used = process.cpuUsage(cpu);
  return {
    rows,
    scope: o.scope,
    workers: o.workers,
    seconds: Math.round((Date.now() - started) / 100) / 10,
    sandboxCpuSeconds: Math.round((used.user + used.system) / 100_000) / 10,
    exitCode,
  };
}
