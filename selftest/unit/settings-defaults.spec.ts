import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { ENV } from '../../harness/config/env-names.mjs';
import { fromRoot } from '../../harness/config/paths.js';
import { handedDown, loadSettings, SETTINGS_SCHEMA } from '../../harness/config/user-settings.mjs';
import { sourcesUnder } from '../support/sources.js';

// The settings' defaults live in one place, harness/config/settings.schema.json (`default`), and
// are applied by loadSettings (ajv, useDefaults), as the profile's are by loadProfile. The
// environment and .env are read by the loader alone (harness/config/user-settings.mjs).

const NO_FILE = '/nonexistent/.env';
const PROPERTIES = SETTINGS_SCHEMA.properties as Record<string, { default?: string }>;
const REGISTRY = SETTINGS_SCHEMA.registry as Record<string, { default?: string }>;

test('every default of the schema is applied when a setting is unset or empty; a value given is kept, trimmed', () => {
  const unset = loadSettings({}, NO_FILE);
  const empty = loadSettings(Object.fromEntries(Object.keys(PROPERTIES).map((k) => [k, ' '])), NO_FILE);
  const withDefault = Object.entries(PROPERTIES).filter(([, spec]) => spec.default !== undefined);
  expect(withDefault.length, 'defaults found in the schema').toBeGreaterThan(8);
  for (const [key, spec] of Object.entries(PROPERTIES)) {
    expect(unset[key as keyof typeof unset], `${key} unset`).toBe(spec.default ?? '');
    expect(empty[key as keyof typeof empty], `${key} empty`).toBe(spec.default ?? '');
  }
  for (const [key, spec] of Object.entries(REGISTRY))
    expect(unset.own[key as keyof typeof unset.own], `${ENV[key as keyof typeof ENV]} unset`).toBe(spec.default ?? '');
  expect(loadSettings({ REPORTS_DIR: ' out ' }, NO_FILE).REPORTS_DIR).toBe('out');
  expect(Object.isFrozen(unset) && Object.isFrozen(unset.own) && Object.isFrozen(unset.named)).toBe(true);
});

test('the settings are read once while the environment and .env stay the same', () => {
  const dir = mkdtempSync(join(tmpdir(), 'obg-settings-once-'));
  const file = join(dir, '.env');
  writeFileSync(file, 'HISTORY_RUNS=4\n');
  const env = { BICFI: 'SBXBSESS' };
  const first = loadSettings(env, file);
  expect(loadSettings({ ...env }, file), 'the same object').toBe(first);
  expect(first.HISTORY_RUNS).toBe('4');
  writeFileSync(file, 'HISTORY_RUNS=12\n');
  expect(loadSettings(env, file).HISTORY_RUNS, '.env changed').toBe('12');
  expect(loadSettings({ ...env, HISTORY_RUNS: '7' }, file).HISTORY_RUNS, 'the environment wins').toBe('7');
});

test('a child process is handed the resolved settings and reads no .env of its own folder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'obg-settings-handed-'));
  writeFileSync(join(dir, '.env'), 'SANDBOX_SCA_DELAY_MS=1234\nPSU_LOGIN=from-dotenv\n');
  const parent = loadSettings({ PATH: '/bin' }, join(dir, '.env'));
  const child = handedDown(parent, { PATH: '/bin' });
  expect(child).toMatchObject({
    PATH: '/bin',
    SANDBOX_SCA_DELAY_MS: '1234',
    PSU_LOGIN: 'from-dotenv',
    REPORTS_DIR: PROPERTIES.REPORTS_DIR.default,
    [ENV.settingsHandedDown]: '1',
  });
  expect(Object.values(child), 'no empty value handed down').not.toContain('');
  // Another folder's .env (the package's, the configuration's) is not read by the child.
  const other = mkdtempSync(join(tmpdir(), 'obg-settings-other-'));
  writeFileSync(join(other, '.env'), 'SANDBOX_SCA_DELAY_MS=9\nREPORTS_DIR=elsewhere\n');
  const seen = loadSettings(child, join(other, '.env'));
  expect([seen.SANDBOX_SCA_DELAY_MS, seen.REPORTS_DIR, seen.named.PSU_LOGIN]).toEqual([
    '1234',
    PROPERTIES.REPORTS_DIR.default,
    'from-dotenv',
  ]);
});

/** The schema's keys, for the rule below. */
const KEYS = Object.keys(PROPERTIES).join('|');
/**
 * A setting read with a literal fallback: `s.REPORTS_DIR || 'reports'`, `settings.own.generated ?? 'default'`,
 * `setting(ENV.console) || 'suite'`, `named[key] ?? ''`.
 */
const LITERAL_DEFAULT = new RegExp(
  `(?:\\.(?:${KEYS})\\b|\\.own\\.\\w+|\\bsetting\\((?:[^()]|\\([^()]*\\))*\\)|\\bnamed\\[[^\\]]*\\])\\s*(?:\\|\\||\\?\\?)\\s*(?:['"\`]|-?\\d|true\\b|false\\b)`,
);

test('no reader defaults a setting with || <literal> or ?? <literal>', () => {
  // The rule sees what it is meant to see.
  for (const line of [
    "reportsDir: resolve(process.cwd(), s.REPORTS_DIR || 'reports'),",
    "const raw = setting(ENV.generated) || 'default';",
    'const window = Math.max(2, Number(env.HISTORY_RUNS || 10));',
    "const raw = loadSettings().own.console ?? 'suite';",
    "const value = settings.named[step.from] ?? '';",
  ])
    expect(line, 'a literal default the rule finds').toMatch(LITERAL_DEFAULT);
  for (const line of [
    'const certFile = settings.CERTIFY_SIGNING_CERT_FILE || undefined;',
    "const dir = loadSettings().own.cacheDir || join(tmpdir(), 'obg-conformance-cache');",
    'SANDBOX_SCA_DELAY_MS: user.SANDBOX_SCA_DELAY_MS || String(EMBEDDED_SCA_DELAY_MS),',
  ])
    expect(line, 'not a literal default of a setting').not.toMatch(LITERAL_DEFAULT);
  const files = ['harness', 'scripts', 'bin', 'tests'].flatMap((f) => sourcesUnder(f));
  const found = [...files, 'playwright.config.ts', 'embedded-sandbox.ts', 'allurerc.mjs'].flatMap((file) =>
    readFileSync(fromRoot(file), 'utf8')
      .split('\n')
      .flatMap((line, i) => (LITERAL_DEFAULT.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
  );
  expect(
    found,
    'a default belongs in harness/config/settings.schema.json (`default`), applied by loadSettings',
  ).toEqual([]);
});

test('the environment over .env is read by the loader alone; a reader takes a field of the settings', () => {
  // init drafts .env itself: it reads the former file to keep the keys it has no value for.
  const exempt = ['harness/config/user-settings.mjs', 'scripts/init/write.ts'];
  const files = ['harness', 'scripts', 'bin', 'tests', 'sandbox'].flatMap((f) => sourcesUnder(f));
  const readers = [...files, 'playwright.config.ts', 'embedded-sandbox.ts', 'allurerc.mjs'].filter(
    (f) => !exempt.includes(f) && /\b(userEnv|envFileValues|setting)\(/.test(readFileSync(fromRoot(f), 'utf8')),
  );
  expect(readers, 'read the settings with loadSettings() and take a field (a typed key)').toEqual([]);
});

/** The settings loader: the one module of the suite that touches `process.env` and reads a `.env`. */
const LOADER = 'harness/config/user-settings.mjs';
/**
 * Modules that may touch the environment besides the loader, each with its reason. None: a write
 * is `passOn` (the loader's), a child's environment is `handedDown()` or `environment()`, and the
 * sandbox is handed its settings by its launcher (`serve(settings)`, scripts/sandbox.ts).
 */
const ALSO_READERS: Record<string, string> = {};

/**
 * Where a module touches the environment or reads a `.env` itself: `process.env` in any form (a
 * read, a write, a default `env = process.env`, `process['env']`, `const { env } = process`),
 * `env` from node:process, Node's own `.env` readers (process.loadEnvFile, util.parseEnv,
 * --env-file), dotenv, or a `.env` path of its own making (the loader's is envFileOf).
 */
function environmentTouches(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) =>
    found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}: ${what}`);
  const isProcess = (e: ts.Node): boolean =>
    (ts.isIdentifier(e) && e.text === 'process') ||
    (ts.isPropertyAccessExpression(e) && e.name.text === 'process' && ts.isIdentifier(e.expression));
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && isProcess(node.expression) && /^(env|loadEnvFile)$/.test(node.name.text))
      at(node, `process.${node.name.text}`);
    if (ts.isElementAccessExpression(node) && isProcess(node.expression)) at(node, 'process[…]');
    if (
      ts.isVariableDeclaration(node) &&
      node.initializer &&
      isProcess(node.initializer) &&
      !ts.isIdentifier(node.name)
    )
      at(node, 'destructured from process');
    if (ts.isIdentifier(node) && /^(parseEnv|loadEnvFile)$/.test(node.text) && !isProcess(node.parent))
      at(node, `Node's ${node.text}`);
    if (ts.isStringLiteralLike(node)) {
      const parent = node.parent;
      const imported =
        ts.isImportDeclaration(parent) ||
        ts.isExportDeclaration(parent) ||
        (ts.isCallExpression(parent) &&
          (parent.expression.kind === ts.SyntaxKind.ImportKeyword ||
            (ts.isIdentifier(parent.expression) && parent.expression.text === 'require')));
      if (imported && /^dotenv(\/|$)/.test(node.text)) at(node, `imports ${node.text}`);
      if (imported && /^(node:)?process$/.test(node.text) && /\benv\b/.test(parent.getText(source)))
        at(node, `env from ${node.text}`);
      if (/^--env-file/.test(node.text)) at(node, node.text);
      if (!imported && /(^|[\\/])\.env$/.test(node.text)) at(node, `a .env path ('${node.text}')`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test('no module but the settings loader touches process.env or reads a .env', () => {
  // The rule sees what it is meant to see.
  for (const planted of [
    "const quiet = process.env.OBG_QUIET === '1';",
    'export function f(env = process.env) { return env; }',
    "process.env['OBG_LIMITER'] = address;",
    "const v = process['env'].CI;",
    'const { env } = process;',
    "import { env } from 'node:process';",
    'const ci = globalThis.process.env.CI;',
    "import { config } from 'dotenv';",
    "await import('dotenv/config');",
    "process.loadEnvFile('.env');",
    "import { parseEnv } from 'node:util';",
    "spawn(process.execPath, ['--env-file=.env', 'x.js']);",
    "const file = resolve(cwd, '.env');",
  ])
    expect(environmentTouches('planted.ts', planted), planted).not.toEqual([]);
  for (const fine of [
    '// process.env is read in user-settings.mjs alone',
    "const hint = 'settings come from the environment or .env';",
    "const limiter = internal('limiter'); passOn({ [ENV.limiter]: limiter });",
    'spawn(cmd, args, { env: { ...handedDown(), REPORTS_DIR: out } });',
    'function f(env: NodeJS.ProcessEnv) { return env.CLIENT_ID; }',
    'const base = envFileOf(cwd); if (process.argv.length) process.exit(2);',
  ])
    expect(environmentTouches('fine.ts', fine), fine).toEqual([]);
  const files = ['harness', 'scripts', 'bin', 'tests', 'sandbox'].flatMap((f) => sourcesUnder(f));
  const rootFiles = readdirSync(fromRoot()).filter((f) => /\.(ts|mts|mjs)$/.test(f));
  expect(rootFiles, 'the files at the root are seen').toEqual(
    expect.arrayContaining(['playwright.config.ts', 'allurerc.mjs']),
  );
  const found = [...files, ...rootFiles]
    .filter((f) => f !== LOADER && !(f in ALSO_READERS))
    .flatMap((f) => environmentTouches(f, readFileSync(fromRoot(f), 'utf8')));
  expect(
    found,
    `${LOADER}: read a setting with loadSettings(), a hand-off between the suite's processes with internal(key), ` +
      'a variable others set with ambient(name); pass a value on with passOn, give a child handedDown() or environment()',
  ).toEqual([]);
  // The loader is what this test says it is.
  expect(
    environmentTouches(LOADER, readFileSync(fromRoot(LOADER), 'utf8')),
    'the loader reads the environment',
  ).not.toEqual([]);
});
