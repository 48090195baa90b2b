import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { fromRoot } from '../../harness/config/paths.js';
import { ENV } from '../../harness/config/env-names.mjs';
import type { ProofPlan } from '../../harness/proof.js';
import type { RequirementResult } from '../../harness/reporter/verdicts.js';
import { PROOF_HEADER } from '../proof/plan.js';
import { runErrorsFile, verdictsFile, type CaseVerdicts } from '../proof/reporter.js';
import { runDir } from './run-dir.js';
import { sharedJson } from './shared-result.js';
import { recordRun, runPlaywright, suiteEnv, type ChildRun } from './run-suite.js';
import { startServer } from './servers.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** One target of a shared run: its answers, and the requirements whose tests run against it. */
export interface TargetCase {
  id: string;
  /** Requirement ids: every test naming one of them runs against this target. */
  runs: string[];
  handler: Handler;
  /** Profile options its tests run under, over the run's profile (a proof case's claims: harness/proof.ts). */
  claims?: Record<string, unknown>;
}

/** What the shared run found for one target: its verdicts, and when its first test began and its last ended. */
export interface TargetVerdicts {
  requirements: RequirementResult[];
  tests: number;
  /** Seconds from its first test's start to its last test's end. */
  seconds: number;
}

export interface TargetsRun {
  run: Pick<ChildRun, 'exitCode' | 'output' | 'durationMs' | 'peakRssBytes'>;
  reportsDir: string;
  byTarget: Record<string, TargetVerdicts>;
  /** Errors of the run outside any test (a file that did not load, a reporter's). */
  errors: string[];
  /** Every request the front served: its case (or '' for a call naming none), method and URL, and " (Authorization)" where it carried one. */
  seen: string[];
}

/**
 * Several targets judged by ONE child run of the suite, as the self-proof judges its cases
 * (harness/proof.ts, selftest/proof): the suite's tests are declared once per target, each
 * sending PROOF_HEADER with the target's id, and one loopback front hands each call to that
 * target's handler (a call naming none, the suite's own token requests, to `fallback`). The
 * proof's reporter folds each target's results into verdicts, as a run of its own narrowed to
 * the same tests would be folded. A child run pays several seconds of CPU before its first test
 * (the runner, its workers, loading the suite): here once for all the targets.
 *
 * The result is made once per self-test run and kept in its folder (`sharedJson`,
 * support/shared-result.ts): a second call with the same name (a worker restarted after a failed
 * test) reads it instead of running again.
 */
export async function runTargets(o: {
  name: string;
  targets: TargetCase[];
  fallback: Handler;
  /** Spec files or folders under tests/ the runner loads (the rest declare nothing here). */
  files: string[];
  clientId: string;
  clientSecret: string;
  workers: number;
  env?: Record<string, string>;
  timeoutMs: number;
}): Promise<TargetsRun> {
  return sharedJson(runDir(`${o.name}.json`), () => makeTargetsRun(o));
}

async function makeTargetsRun(o: Parameters<typeof runTargets>[0]): Promise<TargetsRun> {
  const reportsDir = runDir(o.name);
  rmSync(reportsDir, { recursive: true, force: true });
  mkdirSync(reportsDir, { recursive: true });
  const planFile = join(reportsDir, 'plan.json');
  const plan: ProofPlan = {
    header: PROOF_HEADER,
    entries: o.targets.map((t) => ({
      id: t.id,
      kind: 'variant',
      expectFailing: [],
      runs: t.runs,
      allVariants: true,
      ...(t.claims ? { claims: t.claims } : {}),
    })),
  };
  writeFileSync(planFile, JSON.stringify(plan, null, 1));
  const handlers = new Map(o.targets.map((t) => [t.id, t.handler]));
  const seen: string[] = [];
  const front = await startServer((req, res) => {
    const id = req.headers[PROOF_HEADER];
    const handler = typeof id === 'string' ? handlers.get(id) : undefined;
    // Marked where the call carried Authorization (a bank that takes no authentication is sent none).
    seen.push(`${handler ? id : ''} ${req.method} ${req.url}${req.headers.authorization ? ' (Authorization)' : ''}`);
    (handler ?? o.fallback)(req, res);
  });
  // As the self-proof's front (selftest/proof/front.ts): idle connections kept past the client's
  // 4 s, so that a late client never reuses a socket the front has just closed ("other side closed").
  front.server.keepAliveTimeout = 72_000;
  front.server.headersTimeout = 75_000;
  let run: ChildRun;
  try {
    const env = suiteEnv({ ...o, baseUrl: front.baseUrl, reportsDir });
    env[ENV.proofPlan] = planFile;
    run = await runPlaywright(['-c', fromRoot('selftest', 'proof', 'suite.config.ts'), ...o.files], {
      env,
      timeoutMs: o.timeoutMs,
      logFile: join(reportsDir, 'output.log'),
    });
    recordRun(o.name, run);
  } finally {
    await front.close();
  }
  const file = verdictsFile(planFile);
  const verdicts = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as CaseVerdicts[]) : [];
  const errorsFile = runErrorsFile(planFile);
  const result: TargetsRun = {
    run: { exitCode: run.exitCode, output: run.output, durationMs: run.durationMs, peakRssBytes: run.peakRssBytes },
    reportsDir,
    byTarget: Object.fromEntries(
      verdicts.map((v) => [
        v.id,
        { requirements: v.requirements, tests: v.tests, seconds: Math.round((v.to - v.from) * 10) / 10 },
      ]),
    ),
    errors: existsSync(errorsFile) ? (JSON.parse(readFileSync(errorsFile, 'utf8')) as string[]) : [],
    seen,
  };
  return result;
}

/** A target's verdicts, or a failure naming the run's output when the run judged nothing for it. */
export function verdictsOf(r: TargetsRun, id: string): TargetVerdicts {
  const v = r.byTarget[id];
  if (!v?.tests)
    throw new Error(
      `the shared run judged nothing for ${id} (exit ${r.run.exitCode}); output:\n${r.run.output.slice(-2000)}`,
    );
  return v;
}
