import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromRoot } from '../../fixtures/config/paths.js';
import { loadProfile } from '../../fixtures/config/profile.js';
import type { Fault } from '../../sandbox/faults/fault.js';
import { PLAN_ENV, type MatrixPlan } from '../matrix/plan.js';
import type { FaultVerdicts } from '../matrix/reporter.js';
import { startSandbox, type RunningSandbox } from './sandbox.js';
import { killGroup, suiteEnv } from './run-suite.js';

export interface MatrixRun {
  exitCode: number | null;
  output: string;
  durationMs: number;
  verdicts: Map<string, FaultVerdicts>;
}

export interface MatrixOptions {
  faults: Fault[];
  outDir: string;
  workers?: number;
  workersPerArea?: number;
  scaDelayMs?: number;
  timeoutMs?: number;
}

/**
 * Runs the whole fault matrix as one child Playwright run: a fresh sandbox per fault (each
 * with that one fault on, in this process), one project per fault and area.
 */
export async function runMatrix(o: MatrixOptions): Promise<MatrixRun> {
  rmSync(o.outDir, { recursive: true, force: true });
  mkdirSync(o.outDir, { recursive: true });
  const sandboxes: RunningSandbox[] = [];
  const started = Date.now();
  try {
    for (const f of o.faults) sandboxes.push(await startSandbox({ faults: [f.id], scaDelayMs: o.scaDelayMs ?? 600 }));
    const profile = loadProfile(process.env.TARGET_PROFILE || 'reference');
    const plan: MatrixPlan = {
      outDir: o.outDir,
      faults: o.faults.map((f, i) => ({ id: f.id, projects: f.projects, baseUrl: sandboxes[i].baseUrl, clientId: sandboxes[i].clientId, clientSecret: sandboxes[i].clientSecret })),
      workers: o.workers ?? 6,
      workersPerArea: o.workersPerArea ?? 2,
      // As the suite's own config: a test may spend four request timeouts and one SCA.
      timeouts: { testMs: Math.max(60_000, profile.timeouts.requestMs * 4 + profile.timeouts.scaMs), expectMs: profile.timeouts.scaMs },
    };
    const planFile = join(o.outDir, 'plan.json');
    writeFileSync(planFile, JSON.stringify(plan, null, 2));
    const first = sandboxes[0];
    const env = suiteEnv({ baseUrl: first?.baseUrl ?? 'http://127.0.0.1:9', clientId: first?.clientId, clientSecret: first?.clientSecret, reportsDir: o.outDir });
    env[PLAN_ENV] = planFile;
    const child = spawn(fromRoot('node_modules', '.bin', 'playwright'), ['test', '-c', fromRoot('selftest', 'matrix', 'suite.config.ts')], {
      cwd: fromRoot(),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const orphan = () => killGroup(child.pid!);
    process.once('exit', orphan);
    let output = '';
    // The child's own output, as it comes, for a look at a long matrix while it runs.
    const log = createWriteStream(join(o.outDir, 'output.log'));
    const keep = (d: Buffer) => {
      log.write(d);
      output = (output + d.toString()).slice(-200_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const exitCode = await new Promise<number | null>((done) => {
      const timer = setTimeout(() => killGroup(child.pid!), o.timeoutMs ?? 1_200_000);
      child.on('close', (code) => {
        clearTimeout(timer);
        done(code);
      });
    });
    log.end();
    process.off('exit', orphan);
    const verdicts = new Map<string, FaultVerdicts>();
    for (const f of o.faults) {
      const file = join(o.outDir, 'verdicts', `${f.id}.json`);
      if (existsSync(file)) verdicts.set(f.id, JSON.parse(readFileSync(file, 'utf8')) as FaultVerdicts);
    }
    return { exitCode, output, durationMs: Date.now() - started, verdicts };
  } finally {
    await Promise.all(sandboxes.map((s) => s.close()));
  }
}
