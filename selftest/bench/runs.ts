import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fromRoot } from '../../harness/config/paths.js';
import type { ConformanceReport } from '../../harness/reporter/conformance.js';
import { runDir } from '../support/run-dir.js';
import { childrenCpu, killGroup } from '../support/run-suite.js';
import { ENV } from '../../harness/config/env-names.mjs';
import { withoutTargetSettings } from '../../harness/config/run-options.mjs';
import { round, runFigures } from './common.js';

/** Runs a command to its end, in a process group of its own; its reaped CPU (user+system) and wall. */
export async function timed(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<{ code: number | null; output: string; wallSeconds: number; cpuSeconds: { user: number; system: number } }> {
  const before = childrenCpu();
  const t0 = Date.now();
  const child = spawn(cmd, args, { cwd: fromRoot(), env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  const keep = (d: Buffer) => (output = (output + d.toString()).slice(-20_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const code = await new Promise<number | null>((done) => {
    const timer = setTimeout(() => killGroup(child.pid!), timeoutMs);
    child.on('close', (c) => {
      clearTimeout(timer);
      done(c);
    });
  });
  const after = childrenCpu();
  return {
    code,
    output,
    wallSeconds: round((Date.now() - t0) / 1000),
    cpuSeconds: { user: round(after.user - before.user), system: round(after.system - before.system) },
  };
}

/** The environment of `npm run conformance` against the embedded sandbox: none of the caller's target settings. */
export function embeddedEnv(reportsDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...withoutTargetSettings(process.env), REPORTS_DIR: reportsDir, [ENV.quiet]: '1', ...extra };
}

/** What a run pays before its first test: one test, against the embedded sandbox, without and with the Allure HTML. */
export async function startupFigures() {
  const dir = runDir('bench-startup');
  rmSync(dir, { recursive: true, force: true });
  const one = ['--grep', '@directory.aspsps.list-shape'];
  const conformance = fromRoot('scripts', 'conformance.mjs');
  const bare = await timed(process.execPath, [conformance, ...one], embeddedEnv(dir), 180_000);
  const html = await timed(process.execPath, [conformance, ...one, '--allure'], embeddedEnv(dir), 180_000);
  const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
  const list = await timed(
    fromRoot('node_modules', '.bin', 'playwright'),
    ['test', '--list'],
    embeddedEnv(join(dir, 'list')),
    180_000,
  );
  const cpu = (t: { cpuSeconds: { user: number; system: number } }) => round(t.cpuSeconds.user + t.cpuSeconds.system);
  return {
    what: 'npm run conformance -- --grep @directory.aspsps.list-shape, embedded sandbox',
    verdict: report.verdict,
    exitCode: bare.code,
    oneTestRun: { cpuSeconds: bare.cpuSeconds, wallSeconds: bare.wallSeconds },
    testSeconds: round((report.run?.sumTestMs ?? 0) / 1000, 2),
    withAllureHtml: { cpuSeconds: html.cpuSeconds, wallSeconds: html.wallSeconds },
    allureHtmlCpuSeconds: round(cpu(html) - cpu(bare)),
    /** `playwright test --list`: the config, the profile and catalogue, and every test file declared (no sandbox, no worker). */
    listCpuSeconds: cpu(list),
  };
}

/** The whole `npm run conformance` against the embedded sandbox, as a user runs it. */
export async function embeddedFigures() {
  const dir = runDir('bench-embedded');
  rmSync(dir, { recursive: true, force: true });
  const r = await timed(process.execPath, [fromRoot('scripts', 'conformance.mjs')], embeddedEnv(dir), 1_500_000);
  const file = join(dir, 'conformance.json');
  if (!existsSync(file))
    throw new Error(`npm run conformance wrote no conformance.json; output:\n${r.output.slice(-2000)}`);
  const report = JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport;
  const stats = report.run!;
  return {
    what: 'npm run conformance (the whole suite, embedded sandbox; no Allure HTML, as by default)',
    verdict: report.verdict,
    exitCode: r.code,
    totals: report.totals,
    ...runFigures(stats),
    processSeconds: r.wallSeconds,
    cpuSeconds: r.cpuSeconds,
    processOverCriticalPath: round((r.wallSeconds * 1000) / Math.max(1, stats.longestTestMs), 2),
  };
}

/** The whole self-test (`CI=true npm test`): its CPU, and wall and CPU per part (scripts/selftest.mjs, parts.json). */
export async function selftestFigures() {
  const runs = fromRoot('selftest', '.runs', 'r');
  const before = new Set(existsSync(runs) ? readdirSync(runs) : []);
  const r = await timed('npm', ['test'], { ...process.env, CI: 'true' }, 5_400_000);
  const mine = (existsSync(runs) ? readdirSync(runs) : []).filter((n) => !before.has(n));
  const parts = mine.map((n) => join(runs, n, 'parts.json')).find((f) => existsSync(f));
  return {
    exitCode: r.code,
    wallSeconds: r.wallSeconds,
    cpuSeconds: r.cpuSeconds,
    closing: r.output.split('\n').filter((l) => l.startsWith('selftest: ') || /^faults: /.test(l)),
    parts: parts ? (JSON.parse(readFileSync(parts, 'utf8')) as unknown) : undefined,
  };
}
