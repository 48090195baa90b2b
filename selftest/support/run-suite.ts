import { spawn } from 'node:child_process';
import { appendFileSync, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '@playwright/test';
import { fromRoot } from '../../harness/config/paths.js';
import { secondApplicationOf } from '../../sandbox/auth/clients.js';
import { DEFAULT_PKI_DIR, makePkiIfMissing, PKI_FILES } from '../../sandbox/tls/pki-files.js';
import type { ConformanceReport } from '../../harness/reporter/report.js';
import { scheduled } from '../../harness/config/run-options.mjs';
import { narrows } from '../../scripts/run-scope.mjs';
import { reapedChildrenCpu } from '../../scripts/proc.mjs';
import { watchMemory } from './memory.js';
import { runDir } from './run-dir.js';
import { ENV } from '../../harness/config/env-names.mjs';

/** Kills a child started with `detached: true` and everything it started. */
export function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

export interface SuiteRun extends ChildRun {
  report?: ConformanceReport;
  reportsDir: string;
}

/** A started sandbox (support/sandbox.ts) spreads into it: its baseUrl, clientId and clientSecret are the target's. */
export interface SuiteRunOptions {
  baseUrl: string;
  clientId?: string;
  clientSecret?: string;
  accessToken?: string;
  /** A project per area (`--project=<area>`), as a user narrows a run: a worker start per project. */
  projects?: string[];
  /**
   * Areas by their folders (`tests/<area>`): the run stays one project, so a worker serves every
   * area named (a worker serves one project, and each start costs seconds of CPU).
   */
  areas?: string[];
  grep?: string;
  /** More arguments for `playwright test` (e.g. --shuffle). */
  args?: string[];
  /** A name for the run's report folder under this self-test run's folder (see run-dir.ts). */
  name: string;
  env?: Record<string, string>;
  workers?: number;
  /** Hard bound on the whole run; the child is killed past it. */
  timeoutMs?: number;
}

/** The environment of a child suite run: only what it needs, so the caller's settings cannot leak in. */
export function suiteEnv(
  o: Pick<SuiteRunOptions, 'baseUrl' | 'clientId' | 'clientSecret' | 'accessToken' | 'workers' | 'env'> & {
    reportsDir: string;
  },
): NodeJS.ProcessEnv {
  // The run signs with the test PKI's TPP certificate: on a fresh machine no sandbox has made it yet.
  makePkiIfMissing();
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    CI: process.env.CI,
    TARGET_BASE_URL: o.baseUrl,
    TARGET_AUTH_URL: o.baseUrl,
    CLIENT_ID: o.clientId ?? '',
    CLIENT_SECRET: o.clientSecret ?? '',
    // The second application every sandbox registers beside a lone first one (sandbox/auth/clients.ts).
    ...(o.clientId && o.clientSecret
      ? (({ clientId, clientSecret }) => ({ SECOND_CLIENT_ID: clientId, SECOND_CLIENT_SECRET: clientSecret }))(
          secondApplicationOf({ clientId: o.clientId, clientSecret: o.clientSecret, redirectUris: [] }),
        )
      : {}),
    ACCESS_TOKEN: o.accessToken ?? '',
    BICFI: 'SBXBSESS',
    PSU_ID: 'selftest-psu-0001',
    PSU_CORPORATE_ID: 'selftest-corp-0001',
    REDIRECT_URI: 'https://tpp.example/callback',
    // An FX quote for international-tp (the reference sandbox takes any).
    FX_QUOTE_ID: '3f0c8a52-7d1e-4b6a-9c2f-5e8d1a7b4c60',
    REPORTS_DIR: o.reportsDir,
    [ENV.quiet]: '1',
    // The reference profile claims signing: the sandbox's test PKI (sandbox/tls/pki.ts) signs.
    TPP_SIGNING_KEY_FILE: join(DEFAULT_PKI_DIR, PKI_FILES.tppKey),
    TPP_SIGNING_CERT_FILE: join(DEFAULT_PKI_DIR, PKI_FILES.tppCert),
    TPP_TEST_PKI_DIR: DEFAULT_PKI_DIR,
    [ENV.workers]: String(o.workers ?? 4),
    ...o.env,
  };
}

export interface ChildRun {
  exitCode: number | null;
  /** The last 200 kB of its output. */
  output: string;
  durationMs: number;
  /** Peak resident memory of the child and everything it started, in bytes; 0 where /proc is missing. */
  peakRssBytes: number;
  /**
   * CPU seconds of the child and everything it started and waited for (its workers, an embedded
   * sandbox), user and system: this process's reaped children's time before and after (Linux
   * /proc; 0 elsewhere). Runs of the same process at the same time count each other's too.
   */
  cpu: { user: number; system: number };
}

/** User and system CPU seconds of this process's reaped children (/proc/self/stat cutime, cstime). */
export const childrenCpu = reapedChildrenCpu;

/** Appends one child run's figures to this self-test run's list (runs.jsonl), which `npm test` and the bench sum by part. */
export function recordRun(name: string, run: Pick<ChildRun, 'durationMs' | 'cpu'>): void {
  try {
    mkdirSync(runDir(), { recursive: true });
    // The self-test project whose test made the run: npm test's table of parts adds the run to it.
    const project = projectOfCurrentTest();
    appendFileSync(
      runDir('runs.jsonl'),
      `${JSON.stringify({ name, project, wallSeconds: run.durationMs / 1000, user: run.cpu.user, system: run.cpu.system })}\n`,
    );
  } catch {
    /* figures only */
  }
}

/** The project of the test running now, or undefined outside a test (the bench). */
function projectOfCurrentTest(): string | undefined {
  try {
    return test.info().project.name;
  } catch {
    return undefined;
  }
}

/**
 * Runs `playwright test` with `args` as a child in a process group of its own (so that a run past
 * its bound is killed with all its workers, and so is one whose parent ends first). The one way
 * the self-tests and the bench start a run of the suite: the green run, the self-proof, hostile
 * targets, the bench.
 */
export function runPlaywright(
  args: string[],
  o: { env: NodeJS.ProcessEnv; timeoutMs: number; logFile?: string },
): Promise<ChildRun> {
  return runChild(fromRoot('node_modules', '.bin', 'playwright'), ['test', ...args], o);
}

/** Runs `command` as runPlaywright runs Playwright (in `cwd`, default the checkout): bounded, killed with all it started. */
export async function runChild(
  command: string,
  args: string[],
  o: { env: NodeJS.ProcessEnv; timeoutMs: number; logFile?: string; cwd?: string },
): Promise<ChildRun> {
  const started = Date.now();
  const cpuBefore = childrenCpu();
  const child = spawn(command, args, {
    cwd: o.cwd ?? fromRoot(),
    env: o.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const memory = watchMemory(child.pid!);
  const orphan = () => killGroup(child.pid!);
  process.once('exit', orphan);
  const log = o.logFile ? createWriteStream(o.logFile) : undefined;
  let output = '';
  const keep = (d: Buffer) => {
    log?.write(d);
    output = (output + d.toString()).slice(-200_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exitCode = await new Promise<number | null>((done) => {
    const timer = setTimeout(() => killGroup(child.pid!), o.timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      done(code);
    });
  });
  log?.end();
  process.off('exit', orphan);
  const cpuAfter = childrenCpu();
  const cpu = {
    user: Math.round((cpuAfter.user - cpuBefore.user) * 100) / 100,
    system: Math.round((cpuAfter.system - cpuBefore.system) * 100) / 100,
  };
  return { exitCode, output, durationMs: Date.now() - started, peakRssBytes: memory.stop(), cpu };
}

/** Runs the conformance suite against a target and reads its verdicts. */
export async function runSuite(o: SuiteRunOptions): Promise<SuiteRun> {
  const reportsDir = runDir(o.name.replace(/[^\w.-]+/g, '_'));
  rmSync(reportsDir, { recursive: true, force: true });
  mkdirSync(reportsDir, { recursive: true });
  // In the suite's order of tests, as `obg-conformance run` dispatches them (unless `args` name another).
  const args = scheduled([
    ...(o.projects ?? []).map((p) => `--project=${p}`),
    ...(o.areas ?? []).map((a) => `tests/${a}`),
    ...(o.grep ? ['--grep', o.grep] : []),
    ...(o.args ?? []),
  ]);
  const env = suiteEnv({ ...o, reportsDir, env: { ...o.env, [ENV.runNarrowed]: narrows(args) ? '1' : '0' } });
  const run = await runPlaywright(args, { env, timeoutMs: o.timeoutMs ?? 240_000 });
  recordRun(o.name, run);
  const file = join(reportsDir, 'conformance.json');
  const report = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport) : undefined;
  return { ...run, report, reportsDir };
}
