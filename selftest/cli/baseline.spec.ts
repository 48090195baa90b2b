import { execFile, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { parse } from 'yaml';
import { fromRoot } from '../../harness/config/paths.js';
import type { ConformanceReport } from '../../harness/reporter/report.js';
import type { NightlySummary } from '../../harness/reporter/history.js';
import { childrenCpu, killGroup, recordRun, suiteEnv } from '../support/run-suite.js';
import { runDir } from '../support/run-dir.js';
import { startSandbox } from '../support/sandbox.js';

/**
 * Baseline and ratchet, end to end through `npm run conformance` on one spec file: a fault switched
 * on is a regression (exit 1) against a baseline that does not list it; `--write-baseline` writes
 * its failures; with that baseline the same fault exits 0; switched off, the baselined
 * requirements are reported fixed, and the comparison with the previous run (PREVIOUS_REPORT)
 * and the nightly summary name them newly passing and fixed. That last run, narrowed to one spec
 * file and conformant, is also the run `npm run certify` must refuse (a run of its own cost a
 * child run more).
 */
test.describe.configure({ mode: 'serial' });

const FAULT = 'directory.city-list-name-dropped';
const SPEC = 'tests/directory/cities-and-countries.spec.ts';
const work = runDir('baseline');
const reportsDir = join(work, 'reports');
const empty = join(work, 'empty.yaml');
const written = join(work, 'written.yaml');

let runs = 0;

/** `npm run conformance -- <SPEC> ...args` against a fresh sandbox with the given faults (its figures in runs.jsonl). */
async function conformance(faults: string[], args: string[], env: Record<string, string>) {
  const sandbox = await startSandbox({ faults });
  const started = Date.now();
  const cpuBefore = childrenCpu();
  try {
    const child = spawn(process.execPath, [fromRoot('scripts', 'conformance.mjs'), SPEC, ...args], {
      cwd: fromRoot(),
      // One worker: a spec file of quick directory checks; a second worker costs its start-up, not wall.
      env: suiteEnv({ ...sandbox, reportsDir, workers: 1, env }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise<number | null>((done) => {
      const timer = setTimeout(() => killGroup(child.pid!), 180_000);
      child.on('close', (c) => {
        clearTimeout(timer);
        done(c);
      });
    });
    const cpu = childrenCpu();
    recordRun(`baseline-${++runs}`, {
      durationMs: Date.now() - started,
      cpu: { user: cpu.user - cpuBefore.user, system: cpu.system - cpuBefore.system },
    });
    const report = JSON.parse(readFileSync(join(reportsDir, 'conformance.json'), 'utf8')) as ConformanceReport;
    const summary = JSON.parse(readFileSync(join(reportsDir, 'summary.json'), 'utf8')) as NightlySummary;
    const markdown = readFileSync(join(reportsDir, 'conformance.md'), 'utf8');
    return { code, output, report, summary, markdown };
  } finally {
    await sandbox.close();
  }
}

let broken: string[] = [];

test.beforeAll(() => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(empty, 'requirements: []\n');
});

test('a fault not in the baseline is a regression: exit 1; --write-baseline writes its failures', async () => {
  test.setTimeout(240_000);
  const r = await conformance([FAULT], [`--write-baseline=${written}`], { BASELINE: empty });
  // What the fault breaks, and what the checks it blocks or leaves broken: every one fails a run.
  const fatal = r.report.requirements.filter((q) => ['failed', 'broken', 'blocked', 'untested'].includes(q.verdict));
  broken = fatal.map((q) => q.id);
  expect(broken, r.output).toContain('directory.cities.list-shape');
  expect(r.code, r.output).toBe(1);
  expect(r.report.baseline?.regressions.map((q) => q.id)).toEqual(broken);
  for (const q of fatal) expect(r.output).toContain(`baseline: regression: ${q.id} ${q.verdict} (not in the baseline)`);
  expect(r.summary.regressions).toEqual(broken);
  expect(existsSync(written), r.output).toBe(true);
  const entries = (parse(readFileSync(written, 'utf8')) as { requirements: { id: string; reason: string }[] })
    .requirements;
  const warned = r.report.requirements.filter((q) => q.verdict === 'warning').map((q) => q.id);
  expect(entries.map((e) => e.id).sort()).toEqual([...broken, ...warned].sort());
  expect(entries.every((e) => e.reason.startsWith('TO REVIEW: '))).toBe(true);
});

test('with the baseline written, the same fault exits 0: every failure is known', async () => {
  test.setTimeout(240_000);
  test.skip(!broken.length, 'the first run found no failure');
  const r = await conformance([FAULT], [], { BASELINE: written });
  expect(r.report.verdict).toBe('not-conformant');
  expect(r.code, r.output).toBe(0);
  expect(r.report.baseline).toMatchObject({ known: broken, regressions: [], expired: [], fixed: [], exitCode: 0 });
  expect(r.output).toContain(`every failure is known (${broken.length} known)`);
  copyFileSync(join(reportsDir, 'conformance.json'), join(work, 'previous.json'));
});

test('with the fault switched off, the baselined requirements are reported fixed, newly passing and in the summary', async () => {
  test.setTimeout(240_000);
  test.skip(!broken.length, 'the first run found no failure');
  const r = await conformance([], [], { BASELINE: written, PREVIOUS_REPORT: join(work, 'previous.json') });
  expect(r.code, r.output).toBe(0);
  expect(r.report.baseline?.fixed).toEqual(broken);
  for (const id of broken) {
    expect(r.output).toContain(`baseline: fixed: remove it from the baseline: ${id}`);
    expect(r.markdown).toContain(`\`${id}\`: fixed: remove it from the baseline`);
  }
  expect(r.report.changes?.previous?.source).toBe(join(work, 'previous.json'));
  expect(r.report.changes?.newlyPassing.map((q) => q.id)).toEqual(broken);
  expect(r.markdown).toContain('## Since the previous run');
  expect(r.summary.fixed).toEqual(broken);
  expect(readFileSync(join(reportsDir, 'summary.txt'), 'utf8')).toContain(`fixed: ${broken.slice(0, 5).join(', ')}`);
});

test('certify refuses a run narrowed to one spec file and builds nothing', async () => {
  test.setTimeout(120_000);
  test.skip(!broken.length, 'the first run found no failure');
  // The last run above: one spec file, the fault off.
  const report = JSON.parse(readFileSync(join(reportsDir, 'conformance.json'), 'utf8')) as ConformanceReport;
  expect(report.verdict).toBe('conformant');
  expect(report.scope?.narrowed).toBe(true);
  const key = join(work, 'certifier.pem');
  writeFileSync(
    key,
    generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
  );
  const out = join(work, 'package');
  let code = 0;
  let output = '';
  try {
    const r = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', fromRoot('scripts', 'certify.ts'), `--reports=${reportsDir}`, `--out=${out}`],
      {
        cwd: fromRoot(),
        env: { PATH: process.env.PATH, HOME: process.env.HOME, CERTIFY_SIGNING_KEY_FILE: key },
        timeout: 90_000,
      },
    );
    output = r.stdout + r.stderr;
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string; message: string };
    code = typeof e.code === 'number' ? e.code : -1;
    output = `${e.stdout ?? ''}${e.stderr ?? ''}` || e.message;
  }
  expect(code, output).toBe(1);
  expect(output).toContain('certify: refused: the run was narrowed');
  expect(output).toContain('no package was built');
  expect(existsSync(out) ? readdirSync(out).filter((n) => n.endsWith('.tar.gz')) : []).toEqual([]);
});
