import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { sharedJson, sharedResult } from '../support/shared-result.js';

// The result of a run several self-tests judge (selftest/support/shared-result.ts): made once.

const fresh = () => join(mkdtempSync(join(tmpdir(), 'obg-shared-')), 'result.json');
const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

test('callers at the same time: one makes the result, the others wait for it', async () => {
  const file = fresh();
  let made = 0;
  const make = async () => {
    made += 1;
    await pause(300);
    writeFileSync(file, '{}');
  };
  // Another process holds the lock while it makes the result: a caller here waits, then reads it.
  writeFileSync(`${file}.lock`, String(process.ppid));
  const waiting = sharedResult(file, make, { pollMs: 50 });
  await pause(200);
  expect(existsSync(file), 'nothing made while another process holds the lock').toBe(false);
  writeFileSync(file, '{}');
  await waiting;
  expect(made).toBe(0);
  // No maker: the first caller makes it, once.
  const second = fresh();
  let runs = 0;
  await sharedResult(second, async () => {
    runs += 1;
    writeFileSync(second, '{}');
  });
  await sharedResult(second, async () => {
    runs += 1;
  });
  expect(runs).toBe(1);
});

test('a maker that is gone is taken over; a run that failed is not made again, every caller gets its error', async () => {
  const file = fresh();
  // A pid no process has (the kernel's limit is below it): its lock is stale.
  writeFileSync(`${file}.lock`, '2147483646');
  await sharedResult(file, async () => writeFileSync(file, '{}'), { pollMs: 50 });
  expect(existsSync(file)).toBe(true);

  const broken = fresh();
  let tries = 0;
  const fail = async () => {
    tries += 1;
    throw new Error('the sandbox did not start');
  };
  await expect(sharedResult(broken, fail)).rejects.toThrow('the sandbox did not start');
  await expect(sharedResult(broken, fail)).rejects.toThrow(/its run failed: Error: the sandbox did not start/);
  expect(tries).toBe(1);
  await expect(sharedResult(fresh(), async () => {})).rejects.toThrow('the run ended without writing its result');
});

test('a JSON result: the maker returns it, every caller reads the same value from the file, made once', async () => {
  const file = fresh();
  let made = 0;
  const make = async () => ({ made: ++made, rows: [{ id: 'a', ok: true }] });
  const first = await sharedJson(file, make);
  const again = await sharedJson(file, make);
  expect(first).toEqual({ made: 1, rows: [{ id: 'a', ok: true }] });
  expect(again, 'a second caller reads the kept value').toEqual(first);
  expect(made, 'made once').toBe(1);
});
