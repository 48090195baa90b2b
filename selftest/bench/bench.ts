/**
 * `npm run bench`: how fast the suite judges, what a run costs, and how much load the sandbox takes.
 *
 * By default (a few minutes on a quiet 2-core machine):
 * 1. What a run pays before its first test: `npm run conformance` narrowed to one test against the
 *    embedded sandbox (Playwright's start, the config, profile and catalogue, the sandbox, a
 *    worker, the reporters; the Allure HTML timed apart), in CPU and wall.
 * 2. The embedded run: the whole `npm run conformance` against the embedded sandbox, its wall
 *    against the longest single test (the critical path; the run waits in parallel when wall ≈
 *    critical path), its CPU (runner, workers, sandbox), its requests per second.
 * 3. The sandbox under load (autocannon, loopback only, bounded in count and time): requests per
 *    second and latency percentiles of a directory read and a payment initiation, beside
 *    /health as the yardstick of this machine at this moment (the machine may be shared).
 * With --scenarios (or BENCH_ONLY=<scenario>,…): the whole suite against other targets: a
 * conforming in-process sandbox, a bank failing about half the tests (the sandbox with every
 * other fault switched on), a server answering HTML 500 to everything (each as a ratio to the
 * conforming run: a failing bank should get its report about as fast), and a slow, rate-limited bank.
 * With --selftest: the whole self-test (`CI=true npm test`) and its CPU and wall per part (tens of
 * minutes). Writes reports/bench.json and prints a table. Every figure comes from this one run.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fromRoot } from '../../harness/config/paths.js';
import { CONNECTIONS, LOAD_REQUESTS, LOAD_SECONDS, round, SLOW, SUITE_WORKERS, type LoadFigures } from './common.js';
import { loadFigures } from './load.js';
import { embeddedFigures, selftestFigures, startupFigures } from './runs.js';
import { SCENARIOS, suiteFigures } from './scenarios.js';

const started = Date.now();
const machine = {
  cores: cpus().length,
  cpu: cpus()[0]?.model ?? 'unknown',
  node: process.version,
  memoryGB: round(totalmem() / 2 ** 30),
  loadAverageAtStart: loadavg().map((n) => round(n, 2)),
};
console.log(
  `bench: ${machine.cores} cores (${machine.cpu}), Node ${machine.node}, load average ${machine.loadAverageAtStart.join(' ')}`,
);
// By default: the start-up cost, the whole embedded run and the load. --scenarios adds the whole
// suite against each scenario's target; --selftest the whole self-test. BENCH_ONLY=load keeps the
// load only; BENCH_ONLY=embedded the start-up and the embedded run only (startup: the start-up only); BENCH_ONLY=<scenario>[,…]
// those scenarios only (e.g. slow-bank).
const flags = new Set(process.argv.slice(2));
for (const f of flags)
  if (!['--scenarios', '--selftest'].includes(f)) {
    console.error(`bench: unknown option ${f} (options: --scenarios, --selftest)`);
    process.exit(2);
  }
const only = process.env.BENCH_ONLY ?? '';
const chosen =
  only && !['load', 'suite', 'embedded', 'startup'].includes(only) ? only.split(',').map((s) => s.trim()) : undefined;
const unknown = chosen?.filter((name) => !SCENARIOS.some((s) => s.name === name)) ?? [];
if (unknown.length) {
  console.error(
    `BENCH_ONLY: no scenario ${unknown.join(', ')} (scenarios: ${SCENARIOS.map((s) => s.name).join(', ')}; or load, embedded, startup, suite)`,
  );
  process.exit(2);
}
const withEmbedded = !only || only === 'embedded' || only === 'suite' || only === 'startup';
let startup: Awaited<ReturnType<typeof startupFigures>> | undefined;
let embedded: Awaited<ReturnType<typeof embeddedFigures>> | undefined;
if (withEmbedded) {
  console.log('bench: what a run pays before its first test (npm run conformance, one test, embedded sandbox)…');
  startup = await startupFigures();
  if (only !== 'startup') {
    console.log('bench: the whole npm run conformance against the embedded sandbox…');
    embedded = await embeddedFigures();
  }
}
const suites: Awaited<ReturnType<typeof suiteFigures>>[] = [];
if (chosen || flags.has('--scenarios'))
  for (const scenario of SCENARIOS.filter((s) => !chosen || chosen.includes(s.name))) {
    console.log(`bench: the whole suite against the ${scenario.name} target with ${SUITE_WORKERS} workers…`);
    suites.push(await suiteFigures(scenario));
  }
let selftest: Awaited<ReturnType<typeof selftestFigures>> | undefined;
if (flags.has('--selftest')) {
  console.log('bench: the whole self-test (CI=true npm test)…');
  selftest = await selftestFigures();
}
const suite = suites.find((s) => s.scenario === 'conformant');
const slow = suites.find((s) => s.scenario === 'slow-bank');
/** Each scenario's process time over the conformant run's, in this one bench run: a failing bank should not take much longer. */
const failing = (suite ? suites.filter((s) => s.scenario === 'half-failing' || s.scenario === 'html-500') : []).map(
  (s) => ({
    scenario: s.scenario,
    testsFailed: s.testsFailed,
    tests: s.tests,
    workerStarts: s.workerStarts,
    processSeconds: s.processSeconds,
    overConformant: round(s.processSeconds / Math.max(0.001, suite!.processSeconds), 2),
  }),
);
const withLoad = (!only || only === 'load') && !chosen;
if (withLoad)
  console.log(
    `bench: the sandbox under load (${CONNECTIONS} connections, ${LOAD_SECONDS} s and at most ${LOAD_REQUESTS} requests each)…`,
  );
const loads = withLoad ? await loadFigures() : [];
/** The least wall time the rate bound allows: the run's requests at the bound's pace. */
const rateFloorSeconds = slow?.limits ? round(slow.limits.requests / SLOW.requestsPerSecond) : undefined;
const health = loads[0] as LoadFigures | undefined;
const report = {
  at: new Date().toISOString(),
  machine: { ...machine, loadAverageAtEnd: loadavg().map((n) => round(n, 2)) },
  startup,
  embedded,
  selftest,
  suite,
  failing,
  /** The slow, rate-limited bank: wall / critical path under the same latency, within the profile's bound. */
  slowBank: slow
    ? {
        ...SLOW,
        wallSeconds: slow.wallSeconds,
        longestTestSeconds: slow.longestTestSeconds,
        longestTest: slow.longestTest,
        wallOverCriticalPath: slow.wallOverCriticalPath,
        // With a rate bound the wall cannot be under requests / requestsPerSecond either.
        rateFloorSeconds,
        wallOverLowerBound: rateFloorSeconds
          ? round(slow.wallSeconds / Math.max(slow.longestTestSeconds, rateFloorSeconds), 2)
          : undefined,
        verdict: slow.verdict,
        limits: slow.limits,
      }
    : undefined,
  scenarios: suites,
  load: loads.map((l) => ({
    ...l,
    rpsOverHealth: l.skipped || !health?.rps ? undefined : round(l.rps / health.rps, 3),
  })),
  seconds: round((Date.now() - started) / 1000),
};
mkdirSync(fromRoot('reports'), { recursive: true });
writeFileSync(fromRoot('reports', 'bench.json'), JSON.stringify(report, null, 2));

const rows: [string, string][] = [
  [
    'machine',
    `${machine.cores} cores, Node ${machine.node}, load avg ${machine.loadAverageAtStart[0]} → ${report.machine.loadAverageAtEnd[0]}`,
  ],
];
if (startup)
  rows.push(
    [
      'a one-test run (before its first test)',
      `${round(startup.oneTestRun.cpuSeconds.user + startup.oneTestRun.cpuSeconds.system)} s CPU, ${startup.oneTestRun.wallSeconds} s wall (the test itself ${startup.testSeconds} s); ${startup.verdict}`,
    ],
    [
      '  of which playwright --list',
      `${startup.listCpuSeconds} s CPU (config, profile, catalogue, every test declared)`,
    ],
    ['  the Allure HTML (when asked)', `${startup.allureHtmlCpuSeconds} s CPU more`],
  );
if (embedded)
  rows.push(
    [
      'embedded run verdict',
      `${embedded.verdict} (${embedded.totals.passed} passed, ${embedded.totals.failed} failed, ${embedded.totals.broken} broken)`,
    ],
    [
      'embedded run: process wall / CPU',
      `${embedded.processSeconds} s / ${round(embedded.cpuSeconds.user + embedded.cpuSeconds.system)} s (${embedded.cpuSeconds.user} user)`,
    ],
    [
      'embedded run: wall / critical path',
      `${embedded.wallOverCriticalPath} (${embedded.wallSeconds} s of tests against ${embedded.longestTestSeconds} s — ${embedded.longestTest}; process ${embedded.processOverCriticalPath})`,
    ],
    ['embedded run: tests / workers started', `${embedded.tests} / ${embedded.workerStarts}`],
    ['embedded run: requests', `${embedded.exchanges} (${embedded.requestsPerSecond} per second of wall)`],
  );
if (selftest) {
  rows.push([
    'self-test (CI=true npm test)',
    `exit ${selftest.exitCode}, ${selftest.wallSeconds} s wall, ${selftest.cpuSeconds.user} s user + ${selftest.cpuSeconds.system} s system CPU`,
  ]);
  const parts = (selftest.parts as { projects?: Record<string, number | string>[] } | undefined)?.projects ?? [];
  for (const p of parts)
    rows.push([
      `  part ${p.project}`,
      `${p.tests} tests, ${p.testSeconds} s summed test wall; ${p.runs} child runs: ${p.runWallSeconds} s wall, ${p.runCpuSeconds} s CPU`,
    ]);
}
if (suite)
  rows.push(
    [
      'suite verdict',
      `${suite.verdict} (${suite.totals.passed} passed, ${suite.totals.failed} failed, ${suite.totals.broken} broken, ${suite.totals.skipped} not claimed)`,
    ],
    ['suite tests / workers (started)', `${suite.tests} / ${suite.workers} (${suite.workerStarts})`],
    ['suite wall (first test start → last end)', `${suite.wallSeconds} s (process ${suite.processSeconds} s)`],
    ['critical path (longest test)', `${suite.longestTestSeconds} s — ${suite.longestTest}`],
    ['tests summed (one worker)', `${suite.sumTestSeconds} s`],
    ['wall / critical path', `${suite.wallOverCriticalPath} (1.0 = as fast as the longest test allows)`],
    ['parallelism (summed / wall)', `${suite.parallelism}`],
    ['requests sent', `${suite.exchanges} (${suite.requestsPerSecond} per second of wall)`],
    ['peak memory of the run', `${suite.peakRssMB} MB`],
  );
if (slow)
  rows.push(
    [
      'slow bank',
      `latency ${SLOW.latencyMs} ms, SCA delay ${SLOW.scaDelayMs} ms, bound ${SLOW.requestsPerSecond} req/s and ${SLOW.concurrency} in flight; ${slow.verdict}`,
    ],
    [
      'slow bank: wall / critical path',
      `${slow.wallOverCriticalPath} (${slow.wallSeconds} s against ${slow.longestTestSeconds} s — ${slow.longestTest})`,
    ],
    [
      'slow bank: measured rate',
      slow.limits
        ? `peak ${slow.limits.peakPerSecond} req/s in any second (bound ${slow.limits.requestsPerSecond}), mean ${slow.limits.averagePerSecond}; ${slow.limits.requests} requests, ${slow.limits.retried} retried after 429, ${slow.limits.rateLimited} given up`
        : '(no limits in the report)',
    ],
    [
      'slow bank: wall / lower bound',
      `${report.slowBank?.wallOverLowerBound ?? '?'} (the larger of the critical path and the rate floor: ${rateFloorSeconds ?? '?'} s = requests / bound)`,
    ],
  );
for (const f of failing)
  rows.push([
    `${f.scenario} target / conformant`,
    `${f.overConformant} × (${f.processSeconds} s against ${suite!.processSeconds} s; ${f.testsFailed} of ${f.tests} tests failed; ${f.workerStarts} workers started)`,
  ]);
for (const l of report.load) {
  rows.push([
    `load: ${l.name}`,
    l.skipped
      ? `skipped: ${l.skipped}`
      : `${l.rps} req/s${l.rpsOverHealth !== undefined && l !== report.load[0] ? ` (${l.rpsOverHealth} × /health)` : ''}; latency p50 ${l.latencyMs.p50} ms, p90 ${l.latencyMs.p90} ms, p99 ${l.latencyMs.p99} ms, max ${l.latencyMs.max} ms; ${l.requests} requests in ${l.seconds} s, ${l.non2xx} non-2xx, ${l.errors} errors`,
  ]);
}
const width = Math.max(...rows.map(([k]) => k.length));
console.log(`\n| ${'figure'.padEnd(width)} | value |\n|${'-'.repeat(width + 2)}|-------|`);
for (const [k, v] of rows) console.log(`| ${k.padEnd(width)} | ${v} |`);
console.log(`\nbench: reports/bench.json written in ${report.seconds} s`);
const bad = report.load.filter((l) => !l.skipped && (l.non2xx > 0 || l.errors > 0));
if (bad.length)
  console.log(`bench: WARNING: ${bad.map((l) => `${l.name}: ${l.non2xx} non-2xx, ${l.errors} errors`).join('; ')}`);
