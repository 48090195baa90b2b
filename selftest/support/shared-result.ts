import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * The result file of a run several self-tests judge (the green and strict runs, the self-proof,
 * the shared runs of several targets, the directory area with its faults on), made once per
 * self-test run by whichever worker asks first. A worker that finds another one making it (the
 * lock file names a live process) waits for the file; one that finds no maker (a narrowed
 * `npm test -- --project=green` has no green-run project) or a dead one makes it itself. A run that
 * failed is not made again: every test that asks for it gets its error.
 *
 * This is how the judging tests run in the same phase as the runs they judge, without a project
 * dependency: Playwright starts a dependent project only when every project of the phase before
 * has ended, so tests that depend on the green run (three minutes) would wait for the self-proof
 * (seven) and then run at the end of `npm test`, on its critical path. Listed after the other
 * projects, they are dispatched once the green run is long over.
 */
export async function sharedResult(
  file: string,
  make: () => Promise<void>,
  o: { pollMs?: number } = {},
): Promise<void> {
  const lock = `${file}.lock`;
  const failed = `${file}.failed`;
  let unnamed = 0;
  for (;;) {
    if (existsSync(file)) return;
    // A run that failed before writing its result is not made again by every test that waited for it.
    if (existsSync(failed)) throw new Error(`${file}: its run failed: ${readFileSync(failed, 'utf8')}`);
    mkdirSync(dirname(file), { recursive: true });
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
    } catch {
      const holder = existsSync(lock) ? Number(readFileSync(lock, 'utf8') || 0) : 0;
      // Just made, its maker's pid not written yet: a moment later it is there.
      if (!holder && existsSync(lock) && unnamed++ < 50) {
        await new Promise((done) => setTimeout(done, 100));
        continue;
      }
      if (holder && holder !== process.pid && alive(holder)) {
        await new Promise((done) => setTimeout(done, o.pollMs ?? 1000));
        continue;
      }
      // Its maker is gone (a worker killed mid-run) or half-written: take it over.
      rmSync(lock, { force: true });
      continue;
    }
    try {
      await make();
      if (!existsSync(file)) throw new Error('the run ended without writing its result');
    } catch (e) {
      writeFileSync(failed, (e as Error).stack ?? String(e));
      throw e;
    } finally {
      rmSync(lock, { force: true });
    }
    return;
  }
}

/**
 * `sharedResult` for a run whose result is one JSON value: `make` returns it, it is written to
 * `file`, and every caller (the maker, one that waited, one that came after, a worker restarted
 * after a failed test) reads it from there.
 */
export async function sharedJson<T>(file: string, make: () => Promise<T>): Promise<T> {
  await sharedResult(file, async () => {
    const value = await make();
    writeFileSync(file, JSON.stringify(value, null, 1));
  });
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}
