#!/usr/bin/env node
// @ts-check
// `npm test`: the typecheck and the lint beside the self-tests (unit, green run, hostile targets,
// self-proof), then the self-proof's table, its totals, and a closing "selftest: N passed, N failed"
// line. A failed typecheck or lint stops the self-tests at once.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withoutTargetSettings } from '../harness/config/run-options.mjs';
import { procPids, procStat, reapedChildrenCpu } from './proc.mjs';
import { environment } from '../harness/config/user-settings.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** @param {string} n */
const bin = (n) => resolve(root, 'node_modules', '.bin', n);
const runs = resolve(root, 'selftest', '.runs');
const started = Date.now();
/**
 * A JSON file of a run (the self-proof's table, Playwright's report), or undefined when absent.
 * @param {string} file
 * @returns {any}
 */
const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);

// The CPU of each child as it is reaped: what this process's reaped children's time grew by at its
// exit (the checks and the self-tests run side by side, so a difference over a span would mix them).
let cpuSeen = reapedChildrenCpu();
/**
 * @param {import('node:child_process').ChildProcess} child
 * @returns {Promise<number>}
 */
const cpuAtExit = (child) =>
  new Promise((done) =>
    child.on('exit', () => {
      const now = reapedChildrenCpu();
      done(now.user - cpuSeen.user + now.system - cpuSeen.system);
      cpuSeen = now;
    }),
  );
/**
 * @param {string} cmd
 * @param {string[]} args
 * @returns {Promise<{ status: number | null, out: string, cpuSeconds: number }>}
 */
const run = (cmd, args) =>
  new Promise((done) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const cpu = cpuAtExit(child);
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (status) => cpu.then((cpuSeconds) => done({ status, out, cpuSeconds })));
  });

// This run's folder (selftest/.runs/r/<id>); folders of runs over a day old are removed.
const runId = `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`;
const here = resolve(runs, 'r', runId);
if (existsSync(resolve(runs, 'r'))) {
  for (const name of readdirSync(resolve(runs, 'r'))) {
    const dir = resolve(runs, 'r', name);
    if (Date.now() - statSync(dir).mtimeMs > 86_400_000) rmSync(dir, { recursive: true, force: true });
  }
}
/** @type {NodeJS.ProcessEnv} */
const env = { ...withoutTargetSettings(environment()), SELFTEST_RUN_ID: runId };
delete env.REPORTS_DIR;
// The user's reports stay as they were: the self-tests write under selftest/.runs only.
const userReports = resolve(root, 'reports');
/**
 * @param {string} dir
 * @param {string} [base]
 * @returns {string[]}
 */
const fingerprint = (dir, base = dir) =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const p = resolve(dir, e.name);
        if (e.isDirectory()) return fingerprint(p, base);
        const st = statSync(p);
        return [`${p.slice(base.length + 1)} ${st.size} ${st.mtimeMs}`];
      })
    : [];
const reportsBefore = fingerprint(userReports);

console.log('selftest: typecheck and lint, beside the self-tests');
// In a process group of its own, so that a failed check stops it with every run it started.
const selftests = spawn(bin('playwright'), ['test', '-c', 'selftest/playwright.config.ts', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env,
  detached: true,
});
// The self-tests and every process under them: the child runs of the suite are process groups of
// their own (selftest/support/run-suite.ts), so the group alone would leave them running.
const stopSelftests = () => {
  const top = selftests.pid;
  for (const pid of top === undefined ? [] : [top, ...descendantsOf(top)])
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
};
process.once('exit', stopSelftests);
const selftestsCpu = cpuAtExit(selftests);
/** @type {Promise<{ status: number | null }>} */
const selftestsEnded = new Promise((done) => selftests.on('close', (status) => done({ status })));

// The typecheck and the lint side by side, beside the self-tests: the self-proof, the longest part,
// starts at once instead of after them. Both as package.json states them: the typecheck is
// TypeScript 7's native compiler (the `typescript-native` alias; under a third of 5.9's CPU on this
// code), and typescript-eslint keeps 5.9, the version its parser supports, as `typescript`.
const checksStarted = Date.now();
const [tsc, lint] = await Promise.all([
  run('npm', ['run', '--silent', 'typecheck']),
  run('npm', ['run', '--silent', 'lint']),
]);
const checks = {
  wallSeconds: Math.round((Date.now() - checksStarted) / 100) / 10,
  cpuSeconds: Math.round((tsc.cpuSeconds + lint.cpuSeconds) * 10) / 10,
};
for (const [name, r, hint] of /** @type {[string, { status: number | null, out: string }, string][]} */ ([
  ['typecheck', tsc, ''],
  ['lint', lint, ': npm run lint; npm run format mends the layout'],
])) {
  if (r.status === 0) continue;
  stopSelftests();
  process.stdout.write(r.out);
  console.log(`selftest: 0 passed, 1 failed (${name}${hint}; the self-tests were stopped)`);
  process.exit(1);
}
console.log(`selftest: typecheck and lint passed (${checks.wallSeconds} s)`);
const pw = await selftestsEnded;
process.off('exit', stopSelftests);

/**
 * @typedef {{ kind: string, id: string, ok: boolean, expected: string[], failed: string[], missed: string[],
 *   stray: string[], silent: string[], tests: number, seconds: number }} ProofRow A row of the self-proof's table.
 */
/** @type {{ rows?: ProofRow[], scope: string, workers: number, seconds: number } | undefined} */
const proof = read(resolve(here, 'proof', 'proof.json'));
if (proof?.rows?.length) {
  const cell = (/** @type {unknown} */ x) => String(x).replace(/\|/g, '\\|').replace(/\n/g, ' ');
  console.log(
    `\nSelf-proof (${proof.rows.length} faults and variants, ${proof.scope}, ${proof.workers} workers, ${proof.seconds} s)`,
  );
  console.log('| case | expected ids | failed or warned ids | result | tests | s |');
  console.log('|---|---|---|---|---|---|');
  for (const r of proof.rows) {
    const good = r.kind === 'fault' ? 'caught' : 'conformant';
    const result = r.ok
      ? good
      : [
          r.missed.length && `MISSED ${r.missed.join('; ')}`,
          r.stray.length && `STRAY ${r.stray.join('; ')}`,
          r.silent.length && `SILENT ${r.silent.join(', ')}`,
        ]
          .filter(Boolean)
          .join(' ');
    console.log(
      `| ${r.kind} ${r.id} | ${r.expected.join(', ')} | ${r.failed.join(', ') || '(none)'} | ${cell(result)} | ${r.tests} | ${r.seconds} |`,
    );
  }
  const faults = proof.rows.filter((r) => r.kind === 'fault');
  const variants = proof.rows.filter((r) => r.kind === 'variant');
  const stray = proof.rows.reduce((n, r) => n + r.stray.length, 0);
  console.log(
    `\nfaults: ${faults.length} run, ${faults.filter((r) => r.ok).length} caught, ${faults.filter((r) => !r.ok).length} not caught; ` +
      `variants: ${variants.length} run, ${variants.filter((r) => r.ok).length} conformant; stray failures: ${stray}`,
  );
}
const coverage = read(resolve(here, 'proof', 'coverage.json'));
if (coverage) {
  console.log(
    `MUST requirements claimed by the reference profile: ${coverage.mustClaimed}; with a fault: ${coverage.mustWithFault}; ` +
      `no fault can reach (noFault): ${coverage.noFault.length}; with neither: ${coverage.uncovered.length}`,
  );
  for (const n of coverage.noFault) console.log(`  - ${n.id}: no fault — ${n.reason}`);
  for (const id of coverage.uncovered) console.log(`  - ${id}: NO FAULT and no noFault reason`);
}

// Where the time went, part by part: each project's tests (their summed wall, from the JSON
// report) and the child runs of the suite they started (selftest/support/run-suite.ts, runs.jsonl:
// wall and CPU of each run with its workers and sandbox), then the CPU of the whole `npm test`.
const results = read(resolve(here, 'selftest-results.json'));
const parts = selftestParts(results, resolve(here, 'runs.jsonl'));
if (parts.projects.length) {
  console.log('\n| part | tests | summed test wall s | child runs | their wall s | their CPU s (user+sys) |');
  console.log('|---|---|---|---|---|---|');
  for (const p of parts.projects)
    console.log(
      `| ${p.project} | ${p.tests} | ${p.testSeconds} | ${p.runs} | ${p.runWallSeconds} | ${p.runCpuSeconds} |`,
    );
}
const cpu = reapedChildrenCpu();
// The rest of the CPU: the self-tests' own runner and workers (the unit tests, the sandboxes and
// fronts they start in-process, the package's install), besides the checks and the child runs.
const childRunsCpu = Math.round(parts.runs.reduce((n, r) => n + r.user + r.system, 0) * 10) / 10;
const rest = Math.round(((await selftestsCpu) - childRunsCpu) * 10) / 10;
console.log(
  `selftest: CPU ${cpu.user} s user, ${cpu.system} s system (typecheck, lint and every run with its workers): ` +
    `typecheck and lint ${checks.cpuSeconds} s, ${parts.runs.length} child runs of the suite ${childRunsCpu} s, ` +
    `the self-tests' own processes ${rest} s`,
);
writeFileSync(
  resolve(here, 'parts.json'),
  JSON.stringify(
    {
      seconds: Math.round((Date.now() - started) / 1000),
      cpu,
      checks,
      childRunsCpuSeconds: childRunsCpu,
      selfTestsCpuSeconds: rest,
      ...parts,
    },
    null,
    1,
  ),
);

let passed = 0;
let failed = 0;
if (results) {
  passed = results.stats?.expected ?? 0;
  failed = (results.stats?.unexpected ?? 0) + (results.stats?.flaky ?? 0);
}
if (pw.status !== 0 && failed === 0) failed = 1;
const reportsAfter = fingerprint(userReports);
const touched = [
  ...reportsBefore.filter((f) => !reportsAfter.includes(f)).map((f) => `changed or removed: ${f.split(' ')[0]}`),
  ...reportsAfter.filter((f) => !reportsBefore.includes(f)).map((f) => `written: ${f.split(' ')[0]}`),
];
if (touched.length) {
  console.log(`\nselftest: a self-test wrote to ${userReports} (the user's reports):`);
  for (const t of [...new Set(touched)].slice(0, 20)) console.log(`  - ${t}`);
  failed += 1;
}
// The failed self-tests again at the very end, so that the last lines of a long log name them.
const failures = failedTests(results);
if (failures.length) {
  console.log(`\nselftest: the failed self-tests (${failures.length}):`);
  for (const f of failures.slice(0, 30)) console.log(`  - ${f}`);
}
console.log(`\nselftest: took ${Math.round((Date.now() - started) / 1000)} s`);
console.log(`selftest: ${passed} passed, ${failed} failed`);
process.exit(pw.status === 0 && !touched.length ? 0 : 1);

/** "[project] file:line title: first line of the error" of each unexpected or flaky test in the JSON report. */
/**
 * @param {any} report
 * @returns {string[]}
 */
function failedTests(report) {
  /** @type {string[]} */
  const out = [];
  /**
   * @param {any} suite
   * @param {string[]} titles
   */
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected' && test.status !== 'flaky') continue;
        const last = test.results?.[test.results.length - 1];
        const error = (last?.error?.message ?? last?.errors?.[0]?.message ?? '').replace(
          new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'),
          '',
        );
        const line = error.split('\n').find((/** @type {string} */ l) => l.trim()) ?? '';
        const title = [...titles, spec.title].filter(Boolean).join(' › ');
        out.push(
          `[${test.projectName}] ${spec.file}:${spec.line} ${title}${test.status === 'flaky' ? ' (flaky)' : ''}: ${line.trim().slice(0, 300)}`,
        );
      }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.file === child.title ? '' : child.title]);
  };
  for (const suite of report?.suites ?? []) walk(suite, []);
  return out;
}

/** Every process below `pid` (Linux /proc; none elsewhere), read before any is killed. */
/**
 * @param {number} pid
 * @returns {number[]}
 */
function descendantsOf(pid) {
  /** @type {Map<number, number>} */
  const parents = new Map();
  for (const p of procPids()) {
    const stat = procStat(p);
    if (stat) parents.set(p, Number(stat[1]));
  }
  /** @type {number[]} */
  const below = [];
  /** @param {number} p */
  const walk = (p) => {
    for (const [child, parent] of parents)
      if (parent === p) {
        below.push(child);
        walk(child);
      }
  };
  walk(pid);
  return below;
}

/**
 * Each project's tests and summed test wall (Playwright's JSON report), and the child runs each
 * project's tests started (runs.jsonl: each run names the project whose test made it, run-suite.ts).
 */
/**
 * @param {any} results
 * @param {string} runsFile
 */
function selftestParts(results, runsFile) {
  /** @type {Map<string, { project: string, tests: number, ms: number }>} */
  const byProject = new Map();
  /** @param {any} suite */
  const walk = (suite) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? []) {
        const p = byProject.get(t.projectName) ?? { project: t.projectName, tests: 0, ms: 0 };
        p.tests++;
        for (const r of t.results ?? []) p.ms += r.duration ?? 0;
        byProject.set(t.projectName, p);
      }
    for (const s of suite.suites ?? []) walk(s);
  };
  for (const s of results?.suites ?? []) walk(s);
  /** @type {any[]} */
  const runs = existsSync(runsFile)
    ? readFileSync(runsFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];
  const r1 = (/** @type {number} */ n) => Math.round(n * 10) / 10;
  const projects = [...byProject.values()].map((p) => {
    // A run's part: the project whose test made it (recorded with the run, run-suite.ts).
    const mine = runs.filter((r) => r.project === p.project);
    return {
      project: p.project,
      tests: p.tests,
      testSeconds: r1(p.ms / 1000),
      runs: mine.length,
      runWallSeconds: r1(mine.reduce((n, r) => n + r.wallSeconds, 0)),
      runCpuSeconds: r1(mine.reduce((n, r) => n + r.user + r.system, 0)),
    };
  });
  return { projects, runs };
}
