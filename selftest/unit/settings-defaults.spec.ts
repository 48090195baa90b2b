import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { ENV } from '../../harness/config/env-names.mjs';
import { fromRoot } from '../../harness/config/paths.js';
import { handedDown, loadSettings, SETTINGS_SCHEMA } from '../../harness/config/user-settings.mjs';
import { sourcesUnder } from '../support/sources.js';

// The settings' defaults live in one place, harness/config/settings.schema.json (`default`), and
// are applied by loadSettings (ajv, useDefaults), as the profile's are by loadProfile.

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
