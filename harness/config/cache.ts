import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSettings } from './user-settings.mjs';

/**
 * Work done once per content instead of once per process: every worker of every run reads the
 * same catalogue and profile (and every run's reporter the specification map's lists), and parsing
 * and validating them cost each worker about a second of CPU. A result is kept under OBG_CACHE_DIR
 * (default: <tmp>/obg-conformance-cache), named by the digest of every input it was made from, so
 * that any edit makes a new one. OBG_CACHE=0 keeps none.
 */
export const cacheEnabled = () => loadSettings().own.cache !== '0';
const cacheDir = () => loadSettings().own.cacheDir || join(tmpdir(), 'obg-conformance-cache');

/** The digest of some files' names and contents and of some strings (an absent file counts as absent). */
export function digestOf(files: string[], strings: string[] = []): string {
  const h = createHash('sha256');
  for (const f of files) {
    h.update(f).update('\0');
    try {
      h.update(readFileSync(f));
    } catch {
      h.update('(absent)');
    }
    h.update('\0');
  }
  for (const s of strings) h.update(s).update('\0');
  return h.digest('hex').slice(0, 32);
}

/** A kept result, or undefined when there is none (or it cannot be read). */
export function readCached<T>(name: string): T | undefined {
  if (!cacheEnabled()) return undefined;
  try {
    return JSON.parse(readFileSync(join(cacheDir(), name), 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** Keeps a result (written whole, then renamed: a reader never sees half of one). */
export function writeCached(name: string, value: unknown): void {
  if (!cacheEnabled()) return;
  try {
    mkdirSync(cacheDir(), { recursive: true });
    const part = join(cacheDir(), `${name}.${process.pid}.part`);
    writeFileSync(part, JSON.stringify(value));
    renameSync(part, join(cacheDir(), name));
    // Results not made for a week go (each edit of an input leaves its former one behind).
    for (const other of readdirSync(cacheDir())) {
      const file = join(cacheDir(), other);
      if (Date.now() - statSync(file).mtimeMs > 7 * 86_400_000) rmSync(file, { force: true });
    }
  } catch {
    /* a read-only temporary folder: the work is done again next time */
  }
}
