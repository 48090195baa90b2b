import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';

// The bench's settings and small helpers, shared by its parts.

export const SUITE_WORKERS = Number(process.env.BENCH_WORKERS || 10);
export const LOAD_REQUESTS = Number(process.env.BENCH_REQUESTS || 50_000);
export const LOAD_SECONDS = Number(process.env.BENCH_SECONDS || 4);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 10);
export const CLIENT = { id: 'bench-client', secret: `bench-secret-${randomUUID()}` };
/** The slow bank: every answer held this long, a decoupled SCA ending this late, and the profile's rate bound. */
export const SLOW = {
  latencyMs: Number(process.env.BENCH_LATENCY_MS || 200),
  scaDelayMs: Number(process.env.BENCH_SCA_DELAY_MS || 6000),
  requestsPerSecond: Number(process.env.BENCH_RPS || 25),
  concurrency: Number(process.env.BENCH_CONCURRENCY || SUITE_WORKERS),
};

export interface LoadFigures {
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

export const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

/** What a run's own measure (conformance.json `run`) gives every bench figure of a whole run. */
export interface RunStats {
  tests: number;
  failedTests: number;
  workerStarts: number;
  exchanges: number;
  wallMs: number;
  longestTestMs: number;
  longestTest: string;
  sumTestMs: number;
}

/** The figures of a whole run derived from its own measure: tests, wall against its critical path, rate. */
export function runFigures(stats: RunStats) {
  const wallSeconds = Math.max(0.001, stats.wallMs / 1000);
  return {
    tests: stats.tests,
    testsFailed: stats.failedTests,
    workerStarts: stats.workerStarts,
    exchanges: stats.exchanges,
    wallSeconds: round(stats.wallMs / 1000),
    longestTestSeconds: round(stats.longestTestMs / 1000),
    longestTest: stats.longestTest,
    sumTestSeconds: round(stats.sumTestMs / 1000),
    wallOverCriticalPath: round(stats.wallMs / Math.max(1, stats.longestTestMs), 2),
    parallelism: round(stats.sumTestMs / Math.max(1, stats.wallMs), 2),
    requestsPerSecond: round(stats.exchanges / wallSeconds),
  };
}

export async function freePort(): Promise<number> {
  return new Promise((done) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });
}
