import { readdirSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { fromRoot } from '../../harness/config/paths.js';
import { DIRECTION, within } from '../support/direction.js';
import { sourcesUnder } from '../support/sources.js';

// The project's layout as rules: what may import what (the rules: selftest/support/direction.ts).

/** The relative modules a file imports (static, dynamic and `export … from`), resolved from the root. */
function importsOf(file: string): string[] {
  const text = readFileSync(fromRoot(file), 'utf8');
  const specifiers = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)['"]([^'"]+)['"]/gm)].map((m) => m[1]);
  return specifiers
    .filter((s) => s.startsWith('.'))
    .map((s) => relative(fromRoot(), resolve(dirname(fromRoot(file)), s)));
}

/** The breaches of the direction by a file's imports (paths from the root). */
function breachesOf(file: string, imports: string[]): string[] {
  return DIRECTION.flatMap((rule) =>
    rule.from.some((part) => within(file, part))
      ? imports
          .filter((target) =>
            rule.never.some((part) => within(target, part.replace(/\.ts$/, '.js')) || within(target, part)),
          )
          .map((target) => `${file} imports ${target}: ${rule.why}`)
      : [],
  );
}

test('the direction holds: the rule refuses a sandbox import of the harness, a harness import of scripts/ and the rest', () => {
  expect(breachesOf('sandbox/server.ts', ['harness/config/paths.js'])).toHaveLength(1);
  expect(breachesOf('harness/reporter/conformance.ts', ['scripts/run-options.mjs'])).toHaveLength(1);
  expect(breachesOf('playwright.config.ts', ['scripts/run-options.mjs'])).toHaveLength(1);
  expect(breachesOf('sandbox/variants/redirect.ts', ['sandbox/faults/oauth.js'])).toHaveLength(1);
  expect(breachesOf('tests/consents/create.spec.ts', ['sandbox/app.js'])).toHaveLength(1);
  expect(breachesOf('scripts/sandbox.ts', ['sandbox/server.js', 'harness/config/paths.js'])).toEqual([]);
  // The rule sees imports: the launcher's own import of the sandbox is found.
  expect(importsOf('embedded-sandbox.ts')).toContain('sandbox/tls/pki-files.js');
});

test('no file breaks the direction between the parts of the project', () => {
  const parts = [...new Set(DIRECTION.flatMap((r) => r.from))];
  const files = [...new Set(parts.flatMap((part) => (/\.(ts|mjs)$/.test(part) ? [part] : sourcesUnder(part))))];
  expect(files.length).toBeGreaterThan(300);
  const breaches = files.flatMap((file) => breachesOf(file, importsOf(file)));
  expect(breaches, 'imports against the direction').toEqual([]);
});

/**
 * The harness root holds only its entry points (what tests/, the configuration and the self-proof
 * import, and the matchers and fixtures beside them); everything else lives in a room by level.
 */
const HARNESS_ENTRY_POINTS = ['expect.ts', 'global-setup.ts', 'operations.ts', 'probe.ts', 'proof.ts', 'test.ts'];

test('the harness root holds only its entry points; the rest lives in rooms (docs/layout.md)', () => {
  const root = readdirSync(fromRoot('harness'), { withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name)
    .sort();
  expect(root, 'a file at the harness root that is no entry point goes into its room').toEqual(HARNESS_ENTRY_POINTS);
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
