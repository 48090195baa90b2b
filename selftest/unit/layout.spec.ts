import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { fromRoot } from '../../harness/config/paths.js';

// The project's layout as rules: what may import what.

/**
 * The TypeScript and JavaScript files under a folder of the project, relative to the root. Folders
 * whose name starts with a dot (selftest/.runs: the runs' own files, an installed package's
 * node_modules among them, removed by its test while others run) and node_modules are not entered.
 */
export function sourcesUnder(folder: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory()
        ? e.name.startsWith('.') || e.name === 'node_modules'
          ? []
          : walk(join(dir, e.name))
        : e.isFile() && /\.(ts|mts|mjs)$/.test(e.name)
          ? [relative(fromRoot(), join(dir, e.name))]
          : [],
    );
  return walk(fromRoot(folder)).sort();
}

/** The relative modules a file imports (static, dynamic and `export … from`), resolved from the root. */
function importsOf(file: string): string[] {
  const text = readFileSync(fromRoot(file), 'utf8');
  const specifiers = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)['"]([^'"]+)['"]/gm)].map((m) => m[1]);
  return specifiers
    .filter((s) => s.startsWith('.'))
    .map((s) => relative(fromRoot(), resolve(dirname(fromRoot(file)), s)));
}

test('the suite judges a bank without knowing the sandbox: nothing in harness/ or tests/ imports from sandbox/', () => {
  const breaches = ['harness', 'tests'].flatMap((folder) =>
    sourcesUnder(folder).flatMap((file) =>
      importsOf(file)
        .filter((target) => target === 'sandbox' || target.startsWith('sandbox/'))
        .map((target) => `${file} imports ${target}`),
    ),
  );
  expect(breaches, 'only embedded-sandbox.ts, beside playwright.config.ts, starts the sandbox').toEqual([]);
  // The rule sees imports: the launcher's own import of the sandbox is found.
  expect(importsOf('embedded-sandbox.ts')).toContain('sandbox/tls/pki-files.js');
});

/** The import circles among the project's own modules (each once, from its smallest file name). */
function importCircles(folders: string[]): string[][] {
  const files = new Set(folders.flatMap(sourcesUnder));
  const asFile = (target: string) =>
    [target, target.replace(/\.js$/, '.ts'), target.replace(/\.mjs$/, '.mts')].find((f) => files.has(f));
  const edges = new Map([...files].map((f) => [f, importsOf(f).flatMap((t) => asFile(t) ?? [])]));
  const circles: string[][] = [];
  const seen = new Set<string>();
  for (const start of [...files].sort()) {
    // Every path from `start` back to it through files sorted after it: each circle once.
    const walk = (file: string, path: string[]) => {
      for (const next of edges.get(file) ?? []) {
        if (next === start) circles.push([...path, start]);
        else if (next > start && !path.includes(next) && !seen.has(`${start}>${next}`)) {
          seen.add(`${start}>${next}`);
          walk(next, [...path, next]);
        }
      }
    };
    walk(start, [start]);
  }
  return circles;
}

test('no import circles among the modules of harness/, sandbox/ and tests/ (type imports count)', () => {
  const circles = importCircles(['harness', 'sandbox', 'tests']).map((c) => c.join(' -> '));
  expect(circles, 'import circles').toEqual([]);
});

/** The folders whose source files the line bound holds: every one of the project's (its root's files too). */
const BOUNDED = ['harness', 'sandbox', 'tests', 'selftest', 'scripts', 'bin', 'spec', 'schemas', 'profiles'];
/** The source files at the project's root (the Playwright configuration, the launcher, the lint's). */
const rootSources = () =>
  readdirSync(fromRoot(), { withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|mts|mjs)$/.test(e.name))
    .map((e) => e.name);
/** The most lines a source file of those folders has. */
const MAX_LINES = 500;
/** Files still over the bound, each to be split; a file leaves this list once it is under it. */
const OVER_MAX_LINES: string[] = [];

test(`no source file over ${MAX_LINES} lines (${BOUNDED.join('/, ')}/ and the root's), but the listed ones`, () => {
  const files = [...rootSources(), ...BOUNDED.flatMap((folder) => sourcesUnder(folder))];
  // The bound sees the command and its steps.
  expect(files).toEqual(
    expect.arrayContaining([
      'bin/obg-conformance.mjs',
      'scripts/init.ts',
      'scripts/init/ask.ts',
      'playwright.config.ts',
    ]),
  );
  const lines = new Map(files.map((f) => [f, readFileSync(fromRoot(f), 'utf8').split('\n').length - 1]));
  const over = files.filter((f) => lines.get(f)! > MAX_LINES && !OVER_MAX_LINES.includes(f));
  expect(
    over.map((f) => `${f}: ${lines.get(f)} lines`),
    `files over ${MAX_LINES} lines: split them by role`,
  ).toEqual([]);
  // An exception under the bound is taken off the list.
  const under = OVER_MAX_LINES.filter((f) => !lines.has(f) || lines.get(f)! <= MAX_LINES);
  expect(under, `listed as over ${MAX_LINES} lines, yet not (take them off OVER_MAX_LINES)`).toEqual([]);
});
