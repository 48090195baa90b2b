import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { MAX_BODY_BYTES } from '../../harness/http/client.js';
import { tagPattern } from '../../harness/catalogue/req.js';
import { judged, serveToken, unexplained } from '../support/hostile.js';
import { fromRoot } from '../../harness/config/paths.js';
import type { ConformanceReport } from '../../harness/reporter/report.js';
import type { RequirementResult } from '../../harness/reporter/verdicts.js';
import { runDir } from '../support/run-dir.js';
import { childrenCpu, recordRun, runSuite, suiteEnv } from '../support/run-suite.js';
import { startSandbox } from '../support/sandbox.js';
import { startServer } from '../support/servers.js';
import { runTargets, verdictsOf, type TargetsRun } from '../support/targets-run.js';
import { ENV } from '../../harness/config/env-names.mjs';

/**
 * Targets that misbehave on the wire. A slice of the suite (directory and headers: they need no
 * consent) runs against each one; every requirement it judges must come out failed or broken,
 * never passed, with a message that says what came back, and the run must end in bounded time.
 * The slice is one check of each kind (shape, detail, 4xx expected, common headers), enough to
 * see each kind of verdict say what came back, at a small cost per target.
 */
const SLICE = [
  'directory.aspsps.list-shape',
  'directory.aspsp.detail-shape',
  'directory.aspsp.unknown',
  'directory.cities.list-shape',
  'directory.countries.list-shape',
  'headers.x-request-id.required',
  'headers.x-request-id.echo',
  'headers.authorization.required',
  'headers.errors.tpp-messages',
  'headers.content-type.json',
];
const grep = tagPattern(SLICE);

interface Hostile {
  name: string;
  /** Answers an API call (the token endpoint is served properly, see serveToken). */
  api(req: IncomingMessage, res: ServerResponse): void;
  /** What every verdict's message must show of the answer. */
  says: RegExp;
  /** Only broken verdicts are honest here (nothing usable came back at all). */
  brokenOnly?: boolean;
  /** The token endpoint misbehaves too (otherwise it answers properly, see serveToken). */
  tokenToo?: boolean;
  /** Requirements the target does keep, with the reason (their pass is honest). */
  mayPass?: Record<string, string>;
  /** Bound on the whole run. */
  withinMs: number;
  /** Bound on the run's peak memory (runner and workers together). */
  maxRssBytes?: number;
}

const json = (res: ServerResponse, status: number, body: string, type = 'application/json') => {
  res.writeHead(status, { 'Content-Type': type });
  res.end(body);
};

const FIFTY_MB = 50 * 1024 * 1024;
/**
 * The shared run's REQUEST_TIMEOUT_MS: short, so that the target whose answer never ends costs
 * seconds per check; every other target answers at once (or is refused at the cap), so none of
 * their verdicts depends on it, and the run shows that a hanging target leaves the others judged.
 */
const SHARED_REQUEST_TIMEOUT_MS = 1500;
const MB = 1024 * 1024;

/** Sends 50 MB of spaces, a megabyte at a time, as fast as the client reads (and stops when it hangs up). */
const flood = (res: ServerResponse, headers: Record<string, string>) => {
  res.writeHead(200, headers);
  const chunk = Buffer.alloc(MB, 0x20);
  let sent = 0;
  const more = () => {
    while (sent < FIFTY_MB && !res.destroyed) {
      sent += MB;
      if (!res.write(chunk)) return void res.once('drain', more);
    }
    res.end();
  };
  res.on('error', () => {});
  more();
};

const HOSTILE: Hostile[] = [
  {
    name: 'answers every request, tokens included, with an HTML 500 page',
    api: (req, res) =>
      json(res, 500, '<!doctype html><html><body><h1>500 Internal Server Error</h1></body></html>', 'text/html'),
    says: /500[\s\S]*(text\/html|<h1>500)|(text\/html|<h1>500)[\s\S]*500/,
    brokenOnly: true,
    tokenToo: true,
    withinMs: 150_000,
  },
  {
    name: 'answers every call with invalid JSON',
    api: (req, res) => json(res, 200, '{"aspsps": [{"bicFi": "SBXBSESS", "name": '),
    says: /invalid JSON/,
    withinMs: 150_000,
  },
  {
    name: 'answers every call with JSON of another shape',
    api: (req, res) => json(res, 200, JSON.stringify({ result: { items: [], page: 1 }, ok: true })),
    says: /result|must have required property|got .*→ 200/,
    mayPass: { 'headers.content-type.json': 'the answers are JSON, labelled application/json' },
    withinMs: 150_000,
  },
  {
    name: 'starts an answer that never ends',
    api: (req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"aspsps": [');
    },
    says: new RegExp(`timed out after ${SHARED_REQUEST_TIMEOUT_MS} ms|did not finish`),
    brokenOnly: true,
    withinMs: 200_000,
  },
  {
    name: 'resets every connection',
    api: (req) => req.socket.destroy(),
    says: /ECONNRESET|socket hang up|reset|closed/i,
    brokenOnly: true,
    withinMs: 150_000,
  },
  {
    name: 'answers with a 50 MB body, chunked (no Content-Length)',
    // No Content-Length: the client cannot refuse it up front, it must stop reading at its cap.
    api: (req, res) => flood(res, { 'Content-Type': 'application/json' }),
    says: new RegExp(
      `response body of more than \\d+ bytes \\(chunked\\) exceeds the ${MAX_BODY_BYTES}-byte cap; reading stopped at the cap`,
    ),
    brokenOnly: true,
    withinMs: 150_000,
    // Two workers; each reads one answer at a time and no more than the cap of it.
    maxRssBytes: 1_500 * MB,
  },
  {
    name: 'announces a 50 MB body (Content-Length)',
    api: (req, res) => flood(res, { 'Content-Type': 'application/json', 'Content-Length': String(FIFTY_MB) }),
    says: new RegExp(`response body of ${FIFTY_MB} bytes \\(Content-Length\\) exceeds the ${MAX_BODY_BYTES}-byte cap`),
    brokenOnly: true,
    withinMs: 150_000,
    maxRssBytes: 1_500 * MB,
  },
  {
    name: 'redirects every call to itself',
    api: (req, res) => {
      res.writeHead(302, { Location: req.url ?? '/' });
      res.end();
    },
    says: /redirected \(302\) to \//,
    brokenOnly: true,
    withinMs: 150_000,
  },
  {
    name: 'answers in XML where JSON is due (wrong Content-Type)',
    api: (req, res) =>
      json(res, 200, '<?xml version="1.0"?><aspsps><aspsp bicFi="SBXBSESS"/></aspsps>', 'application/xml'),
    says: /application\/xml/,
    withinMs: 150_000,
  },
];

/** A hostile target's verdicts: what every test of it asserts, from a run of its own or from the shared run. */
function expectHostileVerdicts(h: Hostile, requirements: RequirementResult[], output: string) {
  expect(output, 'no crash of the runner or a worker').not.toMatch(
    /Worker process exited unexpectedly|out of memory|heap limit/i,
  );
  const verdicts = judged(requirements);
  expect(
    verdicts.some((r) => r.verdict === 'failed' || r.verdict === 'broken'),
    'the target is not judged conformant',
  ).toBe(true);
  expect(verdicts.map((r) => r.id).sort(), 'the slice judges every requirement it names').toEqual([...SLICE].sort());
  const kept = h.mayPass ?? {};
  expect(
    verdicts.filter((r) => r.verdict === 'passed' && !kept[r.id]).map((r) => r.id),
    'nothing passes',
  ).toEqual([]);
  const allowed = h.brokenOnly ? ['broken'] : ['failed', 'broken', 'warning'];
  // A check whose step (a list it reads an entry of) is what the target broke is blocked by the
  // requirement that judges that step, itself failed or broken here: a cascade, not a verdict.
  const failedHere = new Set(verdicts.filter((r) => r.verdict === 'failed' || r.verdict === 'broken').map((r) => r.id));
  const cascade = (r: RequirementResult) =>
    !h.brokenOnly && r.verdict === 'blocked' && !!r.blockedBy?.length && r.blockedBy.every((id) => failedHere.has(id));
  expect(
    verdicts
      .filter((r) => !kept[r.id] && !allowed.includes(r.verdict) && !cascade(r))
      .map((r) => `${r.id}: ${r.verdict}${r.blockedBy ? ` by ${r.blockedBy.join(', ')}` : ''}`),
    `verdicts must be ${allowed.join(' or ')} (or blocked by one of those)`,
  ).toEqual([]);
  expect(
    // A cascade names its root cause, whose own test says what came back.
    unexplained(requirements, h.says, [...Object.keys(kept), ...verdicts.filter(cascade).map((r) => r.id)]),
    `every verdict must say what came back (${h.says})`,
  ).toEqual([]);
  expect(JSON.stringify(requirements)).not.toContain('hostile-secret-value');
  return verdicts;
}

/**
 * The targets that answer a proper token are judged in ONE child run
 * (selftest/support/targets-run.ts: the slice declared once per target, each call routed to its
 * target by a header): a child run pays several seconds of CPU before its first test. Each target
 * keeps its own test, its own bound on time (from its first test to its last) and its verdicts
 * folded apart. The one whose token endpoint misbehaves too runs alone.
 */
const SHARED = HOSTILE.filter((h) => !h.tokenToo);
const ALONE = HOSTILE.filter((h) => h.tokenToo);
const targetId = (h: Hostile) => h.name.replace(/\W+/g, '-');
const title = (h: Hostile) =>
  `a target that ${h.name} gets ${h.brokenOnly ? 'broken' : 'failed or broken'} verdicts that say what came back`;
const SHARED_WITHIN_MS = 240_000;

test.describe('hostile targets judged in one run', () => {
  // In order, in one worker: the run is made once (and read again by a worker restarted after a failure).
  test.describe.configure({ mode: 'default' });
  let shared: TargetsRun;
  test.beforeAll(async () => {
    test.setTimeout(SHARED_WITHIN_MS + 30_000);
    shared = await runTargets({
      name: 'hostile-shared',
      targets: SHARED.map((h) => ({
        id: targetId(h),
        runs: SLICE,
        handler: (req, res) => {
          if (serveToken(req, res)) return;
          req.resume();
          h.api(req, res);
        },
      })),
      fallback: (req, res) => {
        if (serveToken(req, res)) return;
        req.resume();
        json(res, 404, '{"error": "no target named"}');
      },
      files: ['tests/directory', 'tests/headers'],
      clientId: 'hostile-client',
      clientSecret: 'hostile-secret-value',
      // One worker, reading one answer at a time (the memory bound below): a second worker's start
      // costs more CPU than the seconds it would share.
      workers: 1,
      // Every check meets the garbage on its own: the shared run has no early probe.
      env: { REQUEST_TIMEOUT_MS: String(SHARED_REQUEST_TIMEOUT_MS) },
      timeoutMs: SHARED_WITHIN_MS,
    });
  });

  for (const h of SHARED) {
    test(title(h), () => {
      expect(
        shared.run.exitCode,
        `the shared run must end by itself within ${SHARED_WITHIN_MS} ms, and fail; output:\n${shared.run.output.slice(-1500)}`,
      ).toBe(1);
      expect(shared.errors, 'errors of the run outside its tests').toEqual([]);
      const v = verdictsOf(shared, targetId(h));
      expect(v.seconds * 1000, `this target's tests, first start to last end (ms)`).toBeLessThan(h.withinMs);
      const verdicts = expectHostileVerdicts(h, v.requirements, shared.run.output);
      if (h.maxRssBytes)
        expect(shared.run.peakRssBytes, 'peak memory of the shared run (bytes)').toBeLessThan(h.maxRssBytes);
      console.log(
        `hostile: ${h.name}: ${verdicts.length} judged, ${verdicts.filter((r) => r.verdict === 'broken').length} broken, ${verdicts.filter((r) => r.verdict === 'failed').length} failed, ${v.tests} tests in ${v.seconds} s of a shared run of ${Math.round(shared.run.durationMs / 1000)} s, peak ${Math.round(shared.run.peakRssBytes / MB)} MB`,
      );
    });
  }
});

for (const h of ALONE) {
  test(title(h), async () => {
    test.setTimeout(h.withinMs + 30_000);
    const target = await startServer((req, res) => {
      if (!h.tokenToo && serveToken(req, res)) return;
      req.resume();
      h.api(req, res);
    });
    try {
      const run = await runSuite({
        name: `hostile-${targetId(h)}`,
        baseUrl: target.baseUrl,
        clientId: 'hostile-client',
        clientSecret: 'hostile-secret-value',
        // No --project: the run is one project, so its worker starts once and serves both areas
        // (a project per area would start a worker for each). One: each check meets the garbage on
        // its own, well within the bound, and a second start costs more CPU.
        // The slice's folders only, as the shared run: without them the runner loads every spec file.
        areas: ['directory', 'headers'],
        grep,
        workers: 1,
        // Every check meets the garbage on its own: the run's early probe is off here (see below for it on).
        env: { [ENV.probe]: '0' },
        timeoutMs: h.withinMs,
      });
      expect(
        run.exitCode,
        `the run must end by itself within ${h.withinMs} ms, and fail; output:\n${run.output.slice(-1500)}`,
      ).toBe(1);
      expect(run.report, `no conformance.json; output:\n${run.output.slice(-2000)}`).toBeDefined();
      expect(run.report!.verdict).not.toBe('conformant');
      const verdicts = expectHostileVerdicts(h, run.report!.requirements, run.output);
      if (h.maxRssBytes) expect(run.peakRssBytes, 'peak memory of the run (bytes)').toBeLessThan(h.maxRssBytes);
      expect(JSON.stringify(run.report)).not.toContain('hostile-secret-value');
      console.log(
        `hostile: ${h.name}: ${verdicts.length} judged, ${run.report!.totals.broken} broken, ${run.report!.totals.failed} failed, ${Math.round(run.durationMs / 1000)} s, peak ${Math.round(run.peakRssBytes / MB)} MB`,
      );
    } finally {
      await target.close();
    }
  });
}

// A dead target is recognised before the tests: the run says "target unavailable" once and every
// check is broken at once, instead of each rediscovering it (and each failed test costing a fresh worker).
test('npm run conformance against a closed port ends within 60 s: target unavailable, verdict incomplete', async () => {
  test.setTimeout(120_000);
  const reportsDir = runDir('dead-closed-port');
  const env = suiteEnv({
    baseUrl: `http://127.0.0.1:${await closedPort()}`,
    clientId: 'dead-client',
    clientSecret: 'dead-secret-value',
    reportsDir,
  });
  const started = Date.now();
  const cpuBefore = childrenCpu();
  const run = spawnSync(process.execPath, [fromRoot('scripts', 'conformance.mjs')], {
    cwd: fromRoot(),
    env,
    encoding: 'utf8',
    timeout: 90_000,
  });
  const cpu = childrenCpu();
  recordRun('dead-closed-port', {
    durationMs: Date.now() - started,
    cpu: { user: cpu.user - cpuBefore.user, system: cpu.system - cpuBefore.system },
  });
  const seconds = (Date.now() - started) / 1000;
  const output = `${run.stdout}${run.stderr}`;
  expect(seconds, `the run ended after ${seconds} s; output:\n${output.slice(-2000)}`).toBeLessThan(60);
  expect(output).toContain('target unavailable');
  // Exit 3: the target is unavailable (not a verdict of non-conformance; obg-conformance --help).
  expect(run.status).toBe(3);
  const report = JSON.parse(readFileSync(join(reportsDir, 'conformance.json'), 'utf8')) as ConformanceReport;
  expectAllBroken(report);
  expect(readFileSync(join(reportsDir, 'conformance.md'), 'utf8')).not.toContain('dead-secret-value');
  console.log(`dead target: a closed port: ${report.requirements.length} broken in ${Math.round(seconds)} s`);
});

test('a target answering every call, tokens included, with an HTML 500 page is unavailable: every check broken at once', async () => {
  test.setTimeout(120_000);
  const server = await startServer((req, res) => {
    req.resume();
    json(res, 500, '<!doctype html><html><body><h1>500 Internal Server Error</h1></body></html>', 'text/html');
  });
  try {
    const run = await runSuite({
      name: 'dead-html-500',
      baseUrl: server.baseUrl,
      clientId: 'dead-client',
      clientSecret: 'dead-secret-value',
      timeoutMs: 90_000,
    });
    expect(run.report, `no conformance.json; output:\n${run.output.slice(-2000)}`).toBeDefined();
    expectAllBroken(run.report!);
    expect(run.report!.errors?.[0]).toMatch(/HTTP 500/);
    console.log(
      `dead target: HTML 500: ${run.report!.requirements.length} broken in ${Math.round(run.durationMs / 1000)} s`,
    );
  } finally {
    await server.close();
  }
});

/** A dead target's report: incomplete, said so, and every claimed requirement broken. */
function expectAllBroken(report: ConformanceReport) {
  expect(report.verdict).toBe('incomplete');
  expect(report.errors?.[0]).toMatch(/^target unavailable: /);
  const judged = report.requirements.filter((r) => r.verdict !== 'skipped');
  expect(judged.length, 'every claimed requirement is judged broken').toBeGreaterThan(100);
  expect(judged.filter((r) => r.verdict !== 'broken').map((r) => `${r.id}: ${r.verdict}`)).toEqual([]);
}

/** A loopback port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((done) => s.listen(0, '127.0.0.1', done));
  const { port } = s.address() as { port: number };
  await new Promise<void>((done) => s.close(() => done()));
  return port;
}

/**
 * Root causes, not cascades: against a bank whose decoupled SCA never ends, the SCA requirement
 * fails and the checks that needed an authorised consent are blocked by it, not failed.
 */
test('a target whose SCA never ends: the SCA requirement fails, the account checks that needed it are blocked', async () => {
  test.setTimeout(300_000);
  const sandbox = await startSandbox({ scaDelayMs: 3_600_000 });
  try {
    const run = await runSuite({
      name: 'sca-never-ends',
      ...sandbox,
      areas: ['authorisations', 'accounts'],
      // The SCA checks, and account checks of each kind that need an authorised consent.
      grep: tagPattern([
        'authorisations.status.ends',
        'accounts.list.shape',
        'accounts.detail.shape',
        'accounts.balances.shape',
        'accounts.transactions.shape',
        'accounts.transaction.details',
        'accounts.consent.terminated',
      ]),
      // One worker: a start costs more CPU than the seconds the waits would share.
      workers: 1,
      env: { SCA_TIMEOUT_MS: '3000' },
      timeoutMs: 280_000,
    });
    expect(run.report, `no conformance.json; output:\n${run.output.slice(-2000)}`).toBeDefined();
    const verdict = new Map(run.report!.requirements.map((r) => [r.id, r]));
    expect(verdict.get('authorisations.status.ends')?.verdict).toBe('failed');
    const accounts = run.report!.requirements.filter((r) => r.area === 'accounts');
    expect(
      accounts.filter((r) => r.verdict === 'failed').map((r) => `${r.id}: ${r.tests.find((t) => t.message)?.message}`),
      'no account requirement fails for a cascade',
    ).toEqual([]);
    const blocked = accounts.filter((r) => r.verdict === 'blocked');
    expect(blocked.length, 'account checks that needed an authorised consent are blocked').toBeGreaterThanOrEqual(5);
    expect([...new Set(blocked.flatMap((r) => r.blockedBy ?? []))]).toEqual(['authorisations.status.ends']);
    expect(run.report!.verdict).toBe('not-conformant');
  } finally {
    await sandbox.close();
  }
});
