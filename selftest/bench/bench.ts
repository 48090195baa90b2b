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
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { cpus, loadavg, totalmem } from 'node:os';
import autocannon from 'autocannon';
import { fromRoot } from '../../harness/config/paths.js';
import type { ConformanceReport } from '../../harness/reporter/conformance.js';
import { FAULTS } from '../../sandbox/faults/index.js';
import { runDir } from '../support/run-dir.js';
import { childrenCpu, killGroup, runSuite } from '../support/run-suite.js';
import { startSandbox } from '../support/sandbox.js';
import { startServer } from '../support/servers.js';

const SUITE_WORKERS = Number(process.env.BENCH_WORKERS || 10);
const LOAD_REQUESTS = Number(process.env.BENCH_REQUESTS || 50_000);
const LOAD_SECONDS = Number(process.env.BENCH_SECONDS || 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 10);
const CLIENT = { id: 'bench-client', secret: `bench-secret-${randomUUID()}` };
/** The slow bank: every answer held this long, a decoupled SCA ending this late, and the profile's rate bound. */
const SLOW = {
  latencyMs: Number(process.env.BENCH_LATENCY_MS || 200),
  scaDelayMs: Number(process.env.BENCH_SCA_DELAY_MS || 6000),
  requestsPerSecond: Number(process.env.BENCH_RPS || 25),
  concurrency: Number(process.env.BENCH_CONCURRENCY || SUITE_WORKERS),
};

interface LoadFigures {
  name: string;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  seconds: number;
  rps: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  skipped?: string;
}

const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

async function freePort(): Promise<number> {
  return new Promise((done) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });
}

/** Fault ids that make the suite wait on the target rather than fail at once. */
const WAITS = /sca|never|state|status|after|valid|expire|finalis|slow|rotat|poll|pending|stays/;

/** A target of the suite scenarios: its base URL and credentials, and how to stop it. */
interface BenchTarget {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

/**
 * The targets the suite is timed against, one after the other in this one bench run: a
 * conforming bank, a bank failing about half the tests (the sandbox with every other fault of
 * the self-proof switched on at once), and a server answering every request with an HTML 500 page.
 */
const SCENARIOS: { name: string; start(): Promise<BenchTarget>; env?(): Record<string, string>; about?: object }[] = [
  { name: 'conformant', start: () => startSandbox() },
  {
    name: 'half-failing',
    start: () =>
      startSandbox({
        // Left out: faults that claim profile options (they change nothing on their own), and
        // faults that make the target slow or keep a state from moving (an SCA that takes long, a
        // status that never comes): those cost waiting on the target, which is not what this
        // scenario measures (the cost of a failure itself).
        faults: FAULTS.filter((f) => !f.claims && !WAITS.test(f.id))
          .filter((_, i) => i % 2 === 0)
          .map((f) => f.id),
      }),
  },
  {
    name: 'html-500',
    start: async () => {
      const server = await startServer((req, res) => {
        req.resume();
        res.writeHead(500, { 'Content-Type': 'text/html' });
        res.end('<!doctype html><html><body><h1>500 Internal Server Error</h1></body></html>');
      });
      return { baseUrl: server.baseUrl, clientId: 'bench', clientSecret: 'bench-secret', close: server.close };
    },
  },
  {
    // A slow, shared bank: every answer late, the SCA later, 429 beyond a rate a little above the
    // profile's bound (limits.requestsPerSecond), which the suite keeps to across its workers.
    name: 'slow-bank',
    start: () =>
      startSandbox({
        latencyMs: SLOW.latencyMs,
        scaDelayMs: SLOW.scaDelayMs,
        rateLimit: { perSecond: Math.ceil(SLOW.requestsPerSecond * 1.25) },
      }),
    env: () => {
      const profile = JSON.parse(readFileSync(fromRoot('profiles', 'reference.json'), 'utf8')) as object;
      const dir = runDir('bench-slow-bank-profile');
      mkdirSync(dir, { recursive: true });
      const file = join(dir, 'profile.json');
      const limits = { requestsPerSecond: SLOW.requestsPerSecond, concurrency: SLOW.concurrency };
      writeFileSync(file, JSON.stringify({ ...profile, name: 'slow-bank', limits }, null, 2));
      return { TARGET_PROFILE: file };
    },
    about: {
      latencyMs: SLOW.latencyMs,
      scaDelayMs: SLOW.scaDelayMs,
      sandboxRateLimitPerSecond: Math.ceil(SLOW.requestsPerSecond * 1.25),
    },
  },
];

/** The whole suite against one scenario's target. */
async function suiteFigures(scenario: (typeof SCENARIOS)[number]) {
  const target = await scenario.start();
  try {
    const run = await runSuite({
      name: `bench-suite-${scenario.name}`,
      baseUrl: target.baseUrl,
      clientId: target.clientId,
      clientSecret: target.clientSecret,
      workers: SUITE_WORKERS,
      timeoutMs: 1_500_000,
      ...(scenario.env ? { env: scenario.env() } : {}),
    });
    const stats = run.report?.run;
    if (!run.report || !stats)
      throw new Error(`the suite run wrote no conformance.json; output:\n${run.output.slice(-2000)}`);
    return {
      scenario: scenario.name,
      verdict: run.report.verdict,
      totals: run.report.totals,
      workers: SUITE_WORKERS,
      tests: stats.tests,
      testsFailed: stats.failedTests,
      workerStarts: stats.workerStarts,
      exchanges: stats.exchanges,
      processSeconds: round(run.durationMs / 1000),
      wallSeconds: round(stats.wallMs / 1000),
      longestTestSeconds: round(stats.longestTestMs / 1000),
      longestTest: stats.longestTest,
      sumTestSeconds: round(stats.sumTestMs / 1000),
      wallOverCriticalPath: round(stats.wallMs / Math.max(1, stats.longestTestMs), 2),
      parallelism: round(stats.sumTestMs / Math.max(1, stats.wallMs), 2),
      requestsPerSecond: round(stats.exchanges / Math.max(0.001, stats.wallMs / 1000)),
      peakRssMB: Math.round(run.peakRssBytes / 1024 / 1024),
      ...(scenario.about ? { target: scenario.about } : {}),
      // The profile's bound and the rate the run measured (conformance.json `limits`).
      ...(run.report.limits ? { limits: run.report.limits } : {}),
    };
  } finally {
    await target.close();
  }
}

/** The reference sandbox in a process of its own, so that the load generator does not share its event loop. */
async function sandboxProcess(): Promise<{ base: string; stop(): void }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/server.ts'], {
    cwd: fromRoot(),
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      SANDBOX_PORT: String(port),
      SANDBOX_HOST: '127.0.0.1',
      SANDBOX_QUIET: '1',
      SANDBOX_CLIENT_ID: CLIENT.id,
      SANDBOX_CLIENT_SECRET: CLIENT.secret,
    },
    stdio: 'ignore',
    detached: true,
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = () => killGroup(child.pid!);
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) return { base, stop };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  stop();
  throw new Error('the sandbox process did not answer /health within 20 s');
}

async function token(base: string, scope: string): Promise<string> {
  const res = await fetch(`${base}/connect/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: CLIENT.id,
      client_secret: CLIENT.secret,
      scope,
    }),
  });
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`no token for "${scope}": HTTP ${res.status}`);
  return body.access_token;
}

/** One bounded autocannon run: LOAD_SECONDS long, at most LOAD_REQUESTS requests. */
async function load(
  name: string,
  url: string,
  opts: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string },
): Promise<LoadFigures> {
  const instance = autocannon({
    url,
    method: opts.method ?? 'GET',
    connections: CONNECTIONS,
    // Bounded both ways: LOAD_SECONDS of load, and never more than LOAD_REQUESTS requests.
    duration: LOAD_SECONDS,
    maxOverallRequests: LOAD_REQUESTS,
    timeout: 10,
    requests: [
      {
        setupRequest: (req: Record<string, unknown>) => ({
          ...req,
          headers: { ...opts.headers, 'X-Request-ID': randomUUID() },
          body: opts.body,
        }),
      },
    ],
  });
  const guard = setTimeout(() => instance.stop(), (LOAD_SECONDS + 5) * 1000);
  const t0 = performance.now();
  const r = await instance;
  // autocannon's own duration counts whole seconds: time the run here for a rate worth reading.
  const elapsed = (performance.now() - t0) / 1000;
  clearTimeout(guard);
  const requests = r.requests.total;
  return {
    name,
    requests,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    seconds: round(elapsed, 2),
    rps: round(requests / Math.max(0.001, elapsed)),
    latencyMs: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max },
  };
}

const skipped = (name: string, why: string): LoadFigures => ({
  name,
  requests: 0,
  non2xx: 0,
  errors: 0,
  timeouts: 0,
  seconds: 0,
  rps: 0,
  latencyMs: { p50: 0, p90: 0, p99: 0, max: 0 },
  skipped: why,
});

async function loadFigures(): Promise<LoadFigures[]> {
  const sandbox = await sandboxProcess();
  try {
    const out: LoadFigures[] = [];
    const dirToken = await token(sandbox.base, 'aspspinformation private');
    // Warm up (JIT, sockets) on both routes first, so that the yardstick is not measured cold.
    await load('warm-up', `${sandbox.base}/health`, {});
    await load('warm-up', `${sandbox.base}/psd2/aspspinformation/v1/aspsps`, {
      headers: { Authorization: `Bearer ${dirToken}` },
    });
    out.push(await load('GET /health (yardstick)', `${sandbox.base}/health`, {}));
    out.push(
      await load('GET aspsps (directory read)', `${sandbox.base}/psd2/aspspinformation/v1/aspsps`, {
        headers: { Authorization: `Bearer ${dirToken}` },
      }),
    );

    const payUrl = `${sandbox.base}/psd2/paymentinitiation/v1/payments/sepa-credit-transfers`;
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const body = JSON.stringify({
      debtorAccount: { iban: 'SE4550000000058398257466', currency: 'EUR' },
      instructedAmount: { currency: 'EUR', amount: '12.50' },
      creditorAccount: { iban: 'DE89370400440532013000', currency: 'EUR' },
      creditorName: 'Bench Creditor',
      remittanceInformationUnstructured: 'bench',
      requestedExecutionDate: tomorrow,
    });
    let payToken: string | undefined;
    try {
      payToken = await token(sandbox.base, 'paymentinitiation private');
    } catch (err) {
      out.push(
        skipped('POST payments/sepa-credit-transfers (initiation)', `no payment token: ${(err as Error).message}`),
      );
    }
    if (payToken) {
      const headers = {
        Authorization: `Bearer ${payToken}`,
        'Content-Type': 'application/json',
        'X-BicFi': 'SBXBSESS',
        'PSU-IP-Address': '192.0.2.10',
      };
      const probe = await fetch(payUrl, {
        method: 'POST',
        headers: { ...headers, 'X-Request-ID': randomUUID() },
        body,
      });
      const text = (await probe.text()).slice(0, 200);
      if (probe.status === 404 || probe.status === 405)
        out.push(
          skipped(
            'POST payments/sepa-credit-transfers (initiation)',
            `the sandbox has no payment initiation route yet (HTTP ${probe.status})`,
          ),
        );
      else if (probe.status !== 201)
        out.push(
          skipped(
            'POST payments/sepa-credit-transfers (initiation)',
            `the probe initiation was refused: HTTP ${probe.status} ${text}`,
          ),
        );
      else
        out.push(
          await load('POST payments/sepa-credit-transfers (initiation)', payUrl, { method: 'POST', headers, body }),
        );
    }
    return out;
  } finally {
    sandbox.stop();
  }
}

/** Runs a command to its end, in a process group of its own; its reaped CPU (user+system) and wall. */
async function timed(
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
function embeddedEnv(reportsDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, REPORTS_DIR: reportsDir, OBG_QUIET: '1', ...extra };
  for (const k of [
    'TARGET_BASE_URL',
    'TARGET_AUTH_URL',
    'CLIENT_ID',
    'CLIENT_SECRET',
    'ACCESS_TOKEN',
    'TARGET_PROFILE',
  ])
    delete env[k];
  return env;
}

/** What a run pays before its first test: one test, against the embedded sandbox, without and with the Allure HTML. */
async function startupFigures() {
  const dir = runDir('bench-startup');
  rmSync(dir, { recursive: true, force: true });
  const one = ['--grep', '@directory.aspsps.list-shape'];
  const conformance = fromRoot('scripts', 'conformance.mjs');
  const bare = await timed(
    process.execPath,
    [conformance, ...one],
    embeddedEnv(dir, { OBG_ALLURE_HTML: '0' }),
    180_000,
  );
  const html = await timed(process.execPath, [conformance, ...one], embeddedEnv(dir), 180_000);
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
async function embeddedFigures() {
  const dir = runDir('bench-embedded');
  rmSync(dir, { recursive: true, force: true });
  const r = await timed(process.execPath, [fromRoot('scripts', 'conformance.mjs')], embeddedEnv(dir), 1_500_000);
  const file = join(dir, 'conformance.json');
  if (!existsSync(file))
    throw new Error(`npm run conformance wrote no conformance.json; output:\n${r.output.slice(-2000)}`);
  const report = JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport;
  const stats = report.run!;
  return {
    what: 'npm run conformance (the whole suite, embedded sandbox, Allure HTML included)',
    verdict: report.verdict,
    exitCode: r.code,
    totals: report.totals,
    tests: stats.tests,
    workerStarts: stats.workerStarts,
    exchanges: stats.exchanges,
    processSeconds: r.wallSeconds,
    cpuSeconds: r.cpuSeconds,
    wallSeconds: round(stats.wallMs / 1000),
    longestTestSeconds: round(stats.longestTestMs / 1000),
    longestTest: stats.longestTest,
    sumTestSeconds: round(stats.sumTestMs / 1000),
    wallOverCriticalPath: round(stats.wallMs / Math.max(1, stats.longestTestMs), 2),
    processOverCriticalPath: round((r.wallSeconds * 1000) / Math.max(1, stats.longestTestMs), 2),
    requestsPerSecond: round(stats.exchanges / Math.max(0.001, stats.wallMs / 1000)),
  };
}

/** The whole self-test (`CI=true npm test`): its CPU, and wall and CPU per part (scripts/selftest.mjs, parts.json). */
async function selftestFigures() {
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
