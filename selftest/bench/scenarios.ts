import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromRoot } from '../../harness/config/paths.js';
import { FAULTS } from '../../sandbox/faults/index.js';
import { runDir } from '../support/run-dir.js';
import { runSuite } from '../support/run-suite.js';
import { startSandbox } from '../support/sandbox.js';
import { startServer } from '../support/servers.js';
import { round, runFigures, SLOW, SUITE_WORKERS } from './common.js';

/** Fault ids that make the suite wait on the target rather than fail at once. */
export const WAITS = /sca|never|state|status|after|valid|expire|finalis|slow|rotat|poll|pending|stays/;

/** A target of the suite scenarios: its base URL and credentials, and how to stop it. */
export interface BenchTarget {
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
export const SCENARIOS: {
  name: string;
  start(): Promise<BenchTarget>;
  env?(): Record<string, string>;
  about?: object;
}[] = [
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
export async function suiteFigures(scenario: (typeof SCENARIOS)[number]) {
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
      ...runFigures(stats),
      processSeconds: round(run.durationMs / 1000),
      peakRssMB: Math.round(run.peakRssBytes / 1024 / 1024),
      ...(scenario.about ? { target: scenario.about } : {}),
      // The profile's bound and the rate the run measured (conformance.json `limits`).
      ...(run.report.limits ? { limits: run.report.limits } : {}),
    };
  } finally {
    await target.close();
  }
}
