import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fromRoot } from '../../harness/config/paths.js';
import type { ConformanceReport } from '../../harness/reporter/conformance.js';
import { watchMemory } from './memory.js';
import { runDir } from './run-dir.js';

/** Kills a child started with `detached: true` and everything it started. */
export function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

export interface SuiteRun {
  exitCode: number | null;
  output: string;
  durationMs: number;
  report?: ConformanceReport;
  reportsDir: string;
  /** Peak resident memory of the child run (runner, workers, browsers), in bytes; 0 where /proc is missing. */
  peakRssBytes: number;
}

export interface SuiteRunOptions {
  baseUrl: string;
  clientId?: string;
  clientSecret?: string;
  accessToken?: string;
  projects?: string[];
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
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    CI: process.env.CI,
    TARGET_BASE_URL: o.baseUrl,
    TARGET_AUTH_URL: o.baseUrl,
    CLIENT_ID: o.clientId ?? '',
    CLIENT_SECRET: o.clientSecret ?? '',
    ACCESS_TOKEN: o.accessToken ?? '',
    BICFI: 'SBXBSESS',
    PSU_ID: 'selftest-psu-0001',
    PSU_CORPORATE_ID: 'selftest-corp-0001',
    REDIRECT_URI: 'https://tpp.example/callback',
    REPORTS_DIR: o.reportsDir,
    OBG_QUIET: '1',
    OBG_WORKERS: String(o.workers ?? 4),
    ...o.env,
  };
}

/** Runs the conformance suite (a child Playwright) against a target and reads its verdicts. */
export async function runSuite(o: SuiteRunOptions): Promise<SuiteRun> {
  const reportsDir = runDir(o.name.replace(/[^\w.-]+/g, '_'));
  rmSync(reportsDir, { recursive: true, force: true });
  mkdirSync(reportsDir, { recursive: true });
  const args = [
    'test',
    ...(o.projects ?? []).map((p) => `--project=${p}`),
    ...(o.grep ? ['--grep', o.grep] : []),
    ...(o.args ?? []),
  ];
  const env = suiteEnv({ ...o, reportsDir });
  const started = Date.now();
  // A process group of its own, so that a run past its bound is killed with all its workers.
  const child = spawn(fromRoot('node_modules', '.bin', 'playwright'), args, {
    cwd: fromRoot(),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const memory = watchMemory(child.pid!);
  // Its own group outlives this process: take it down if this process ends first.
  const orphan = () => killGroup(child.pid!);
  process.once('exit', orphan);
  let output = '';
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-200_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exitCode = await new Promise<number | null>((done) => {
    const timer = setTimeout(() => killGroup(child.pid!), o.timeoutMs ?? 240_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done(code);
    });
  });
  const peakRssBytes = memory.stop();
  process.off('exit', orphan);
  const file = join(reportsDir, 'conformance.json');
  const report = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport) : undefined;
  return { exitCode, output, durationMs: Date.now() - started, report, reportsDir, peakRssBytes };
}
