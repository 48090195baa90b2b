import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { fromRoot } from '../../harness/config/paths.js';
import { loadProfile } from '../../harness/config/profile.js';
import { Coordinator, retryWaitMs } from '../../harness/http/limits.js';
import { runDir } from '../support/run-dir.js';

/** The parts of the request limiter (harness/http/limits.ts) that need no suite run. */

test('the coordinator spaces starts within the rate and bounds the requests in flight', async () => {
  const c = new Coordinator({ requestsPerSecond: 40, concurrency: 2, retries: 0, maxRetryAfterMs: 0 });
  const started = Date.now();
  await Promise.all(
    Array.from({ length: 30 }, async () => {
      const release = await c.acquire();
      await new Promise((done) => setTimeout(done, 5));
      release();
    }),
  );
  const s = c.stats();
  expect(s.requests).toBe(30);
  expect(s.peakPerSecond).toBeLessThanOrEqual(40);
  expect(s.peakConcurrency).toBeLessThanOrEqual(2);
  // 30 starts at least 25 ms apart.
  expect(Date.now() - started).toBeGreaterThanOrEqual(29 * 25 - 5);
});

test('a busy process does not squeeze two starts closer than the spacing: the bound holds on the clock the starts are counted with', async () => {
  const c = new Coordinator({ requestsPerSecond: 20, retries: 0, maxRetryAfterMs: 0 });
  const busy = (ms: number) => {
    const until = Date.now() + ms;
    while (Date.now() < until);
  };
  // The event loop blocked now and then for most of a spacing (50 ms): p-queue's timers fire late.
  await Promise.all(
    Array.from({ length: 40 }, async (_, i) => {
      const release = await c.acquire();
      if (i % 3 === 0) busy(45);
      release();
    }),
  );
  const s = c.stats();
  expect(s.requests).toBe(40);
  expect(s.peakPerSecond, JSON.stringify(s)).toBeLessThanOrEqual(20);
  const starts = (c as unknown as { starts: number[] }).starts;
  const gaps = starts.slice(1).map((t, i) => t - starts[i]);
  expect(Math.min(...gaps), `gaps between starts (ms): ${gaps.join(', ')}`).toBeGreaterThanOrEqual(50);
});

test('workers share one bound through the coordinator socket, and a gone worker releases its leases', async () => {
  const c = new Coordinator({ concurrency: 1, retries: 0, maxRetryAfterMs: 0 });
  const address = await c.serve();
  const { connect } = await import('node:net');
  const [host, port] = address.split(':');
  const ask = (id: string) =>
    new Promise<{ socket: ReturnType<typeof connect>; granted: Promise<void> }>((ready) => {
      const socket = connect(Number(port), host, () => {
        const granted = new Promise<void>((done) => socket.on('data', (d) => String(d).includes(`g ${id}`) && done()));
        socket.write(`a ${id}\n`);
        ready({ socket, granted });
      });
    });
  const first = await ask('1');
  await first.granted;
  const second = await ask('7');
  let secondIn = false;
  void second.granted.then(() => (secondIn = true));
  await new Promise((done) => setTimeout(done, 100));
  expect(secondIn, 'concurrency 1: the second waits while the first holds its lease').toBe(false);
  first.socket.destroy(); // a worker that dies releases what it held
  await second.granted;
  second.socket.write('n retried\n');
  await new Promise((done) => setTimeout(done, 50));
  expect(c.stats()).toMatchObject({ requests: 2, peakConcurrency: 1, retried: 1 });
  second.socket.destroy();
  await c.close();
});

test('Retry-After in seconds or as a date, capped; none: 1 s doubling', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  expect(retryWaitMs('2', 0, 5000, now)).toBe(2000);
  expect(retryWaitMs('Thu, 01 Jan 2026 00:00:03 GMT', 0, 5000, now)).toBe(3000);
  expect(retryWaitMs('30', 0, 5000, now), 'beyond maxRetryAfterMs: no retry').toBeUndefined();
  expect(retryWaitMs(undefined, 0, 5000, now)).toBe(1000);
  expect(retryWaitMs(undefined, 1, 5000, now)).toBe(2000);
  expect(retryWaitMs(undefined, 5, 5000, now)).toBe(5000);
});

test('a bad limits value stops the run naming the field', () => {
  const profile = JSON.parse(readFileSync(fromRoot('profiles', 'reference.json'), 'utf8')) as Record<string, unknown>;
  mkdirSync(runDir(), { recursive: true });
  for (const [limits, field] of [
    [{ requestsPerSecond: 0 }, 'limits.requestsPerSecond'],
    [{ concurrency: 1.5 }, 'limits.concurrency'],
    [{ retries: -1 }, 'limits.retries'],
    [{ burst: 3 }, '"burst" is not a profile field'],
  ] as const) {
    const file = join(runDir(), `limits-${field.replace(/\W+/g, '-')}.json`);
    writeFileSync(file, JSON.stringify({ ...profile, limits }));
    expect(() => loadProfile(file), field).toThrow(field);
  }
});
