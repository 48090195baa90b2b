import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { ENV, ENV_VARS } from '../../harness/config/env-names.mjs';
import { fromRoot } from '../../harness/config/paths.js';
import { readSettings } from '../../harness/config/settings.js';
import { envExample, settingsHelp } from '../../harness/config/settings-text.mjs';
import { documentedSettings, loadSettings, SETTINGS_SCHEMA, userEnv } from '../../harness/config/user-settings.mjs';
import type { Target } from '../../harness/config/target.js';
import { pastOfRun } from '../../harness/reporter/history.js';
import { BrowserAgent } from '../../harness/sca/browser-agent.js';
import { sourcesUnder } from '../support/sources.js';

// The user's settings: one schema (harness/config/settings.schema.json), one reader of .env
// (harness/config/user-settings.mjs), the environment over .env everywhere.

/** Runs `body` in a fresh working folder holding `dotenv` as its .env, the named keys unset in the environment. */
async function inFolderWithEnv<T>(dotenv: Record<string, string>, body: (cwd: string) => T | Promise<T>): Promise<T> {
  const cwd = mkdtempSync(join(tmpdir(), 'obg-settings-'));
  writeFileSync(
    join(cwd, '.env'),
    Object.entries(dotenv)
      .map(([k, v]) => `${k}=${v}\n`)
      .join(''),
  );
  const before = process.cwd();
  const saved = Object.fromEntries(Object.keys(dotenv).map((k) => [k, process.env[k]]));
  for (const k of Object.keys(dotenv)) delete process.env[k];
  process.chdir(cwd);
  try {
    return await body(cwd);
  } finally {
    process.chdir(before);
    for (const [k, v] of Object.entries(saved)) if (v !== undefined) process.env[k] = v;
  }
}

const report = (finishedAt: string, verdict: 'passed' | 'failed') => ({
  target: { baseUrl: 'https://bank.example', profile: 'bank', embedded: false },
  startedAt: finishedAt,
  finishedAt,
  verdict: verdict === 'failed' ? ('not-conformant' as const) : ('conformant' as const),
  totals: { passed: 1, failed: 0, warning: 0, skipped: 0, broken: 0, blocked: 0, untested: 0 },
  requirements: [
    { id: 'a.one', verdict, tests: [{ title: 'a.one', file: 'x.spec.ts', status: verdict, message: 'broke' }] },
  ] as never,
});

test('the environment wins over .env, even with an empty value; a key only in .env is read from it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'obg-settings-'));
  writeFileSync(join(dir, '.env'), 'A_KEY=from-file\nB_KEY=from-file\nC_KEY=from-file\n');
  const env = userEnv({ A_KEY: 'from-env', B_KEY: '' }, join(dir, '.env'));
  expect([env.A_KEY, env.B_KEY, env.C_KEY]).toEqual(['from-env', '', 'from-file']);
});

test('CHROMIUM_PATH set in .env reaches the browser agent at launch', async () => {
  // An executable that is no browser, at a path of this test's own: the agent launches it (a
  // missing path would fall back to the npm package's build: harness/config/chromium.ts).
  const dir = mkdtempSync(join(tmpdir(), 'obg-not-chromium-'));
  const notChromium = join(dir, 'not-chromium');
  writeFileSync(notChromium, '#!/bin/sh\nexit 3\n', { mode: 0o755 });
  await inFolderWithEnv({ CHROMIUM_PATH: notChromium }, async () => {
    expect(loadSettings().CHROMIUM_PATH).toBe(notChromium);
    const target = {
      profileName: 'bank',
      chromiumPath: loadSettings().CHROMIUM_PATH,
      agentValues: {},
      redirectUri: 'https://tpp.example/callback',
      profile: { sca: { browser: { approve: [{ click: '#approve' }] } } },
    } as unknown as Target;
    // The agent launches the browser .env names: Playwright's launch fails naming that executable.
    await expect(new BrowserAgent(target).decide('https://bank.example/authorize', 'approve')).rejects.toThrow(
      notChromium,
    );
  });
  rmSync(dir, { recursive: true, force: true });
});

test('BASELINE set in .env judges the run against that baseline', async () => {
  await inFolderWithEnv({ BASELINE: 'known.yaml' }, (cwd) => {
    writeFileSync(
      join(cwd, 'known.yaml'),
      'requirements:\n  - id: a.one\n    reason: known since the last release\n    expires: 2999-01-31\n',
    );
    const past = pastOfRun(report('2026-11-22T01:00:00Z', 'failed'), join(cwd, 'reports'));
    expect(past.baseline).toMatchObject({ file: 'known.yaml', known: ['a.one'], regressions: [], exitCode: 0 });
  });
});

test('PREVIOUS_REPORT set in .env is the run compared with', async () => {
  await inFolderWithEnv({ PREVIOUS_REPORT: 'last.json' }, (cwd) => {
    writeFileSync(join(cwd, 'last.json'), JSON.stringify(report('2026-11-21T01:00:00Z', 'passed')));
    const past = pastOfRun(report('2026-11-22T01:00:00Z', 'failed'), join(cwd, 'reports'));
    expect(past.changes.previous).toMatchObject({ source: 'last.json', finishedAt: '2026-11-21T01:00:00Z' });
    expect(past.changes.newlyFailing).toEqual([{ id: 'a.one', verdict: 'failed', was: 'passed' }]);
  });
});

test('HISTORY_RUNS set in .env is the window of the flaky report; a malformed value stops the run naming it', async () => {
  await inFolderWithEnv({ HISTORY_RUNS: '3' }, (cwd) => {
    expect(pastOfRun(report('2026-11-22T01:00:00Z', 'passed'), join(cwd, 'reports')).changes.window).toBe(3);
  });
  await inFolderWithEnv({ HISTORY_RUNS: 'often' }, (cwd) => {
    expect(() => readSettings(process.env, join(cwd, '.env'))).toThrow(/^HISTORY_RUNS \(environment or .*\): "often"/);
  });
});

test('the sandbox command reads SANDBOX_* from .env and says how to run the suite against the sandbox', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'obg-settings-'));
  writeFileSync(join(cwd, '.env'), 'SANDBOX_PORT=0\nSANDBOX_CLIENT_ID=from-dotenv\n');
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, SANDBOX_CLIENT_SECRET: 'from-environment' };
  const child = spawn(process.execPath, [fromRoot('bin', 'obg-conformance.mjs'), 'sandbox'], { cwd, env });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  try {
    await expect.poll(() => out, { timeout: 30_000 }).toContain('Run the suite against it');
  } finally {
    child.kill('SIGTERM');
  }
  expect(out).toMatch(/client id\s+from-dotenv/);
  expect(out).toMatch(/CLIENT_ID=from-dotenv CLIENT_SECRET=from-environment /);
});

test('.env.example is the text made from the schema (node scripts/env-example.mjs writes it)', () => {
  expect(readFileSync(fromRoot('.env.example'), 'utf8')).toBe(envExample());
});

test("each command's --help lists the settings of its groups, from the schema", () => {
  const help = (command: string) =>
    spawnSync(process.execPath, [fromRoot('bin', 'obg-conformance.mjs'), command, '--help'], { encoding: 'utf8' })
      .stdout;
  for (const command of ['run', 'sandbox', 'certify']) {
    const text = help(command);
    expect(text).toContain(settingsHelp(command));
    const groups = Object.entries(SETTINGS_SCHEMA.groups).filter(([, g]) => g.commands.includes(command));
    for (const { name, spec } of documentedSettings())
      if (groups.some(([id]) => id === spec.group)) expect(text, `${command} --help`).toContain(name);
  }
});

test('every setting has a kind, a group, a description and readers that exist and name it', () => {
  const problems: string[] = [];
  for (const { name, spec } of documentedSettings()) {
    if (!(spec.group in SETTINGS_SCHEMA.groups)) problems.push(`${name}: no group ${spec.group}`);
    if (!spec.kind || !spec.summary || !spec.description) problems.push(`${name}: kind, summary and description`);
    for (const file of spec.readers) {
      if (file === 'user') continue;
      if (!existsSync(fromRoot(file))) problems.push(`${name}: ${file} does not exist`);
      else if (
        !name.includes('<') &&
        !Object.values(ENV).includes(name) &&
        !readFileSync(fromRoot(file), 'utf8').includes(name)
      )
        problems.push(`${name}: not named in ${file}`);
    }
  }
  expect(problems).toEqual([]);
});

test("the suite's own OBG_* settings are placed in the schema by their registry key, and only those", () => {
  const userSettings = Object.entries(ENV_VARS)
    .filter(([, v]) => v.setting)
    .map(([k]) => k)
    .sort();
  expect(Object.keys(SETTINGS_SCHEMA.registry).sort()).toEqual(userSettings);
});

test('.env is parsed in one module: nothing else imports dotenv', () => {
  const files = ['harness', 'scripts', 'bin', 'sandbox', 'tests'].flatMap((f) => sourcesUnder(f));
  const roots = ['playwright.config.ts', 'embedded-sandbox.ts', 'allurerc.mjs'];
  const readers = [...files, ...roots].filter((f) => /from ['"]dotenv['"]/.test(readFileSync(fromRoot(f), 'utf8')));
  expect(readers).toEqual(['harness/config/user-settings.mjs']);
});

test('a setting of the schema is read through the reader, not from process.env alone', () => {
  const keys = Object.keys(SETTINGS_SCHEMA.properties);
  // init drafts .env itself.
  const exempt = ['scripts/init.ts'];
  const files = ['harness', 'scripts', 'bin'].flatMap((f) => sourcesUnder(f));
  const offences = [...files, 'playwright.config.ts', 'embedded-sandbox.ts', 'allurerc.mjs']
    .filter((f) => !exempt.includes(f))
    .flatMap((f) =>
      [...readFileSync(fromRoot(f), 'utf8').matchAll(/process\.env(?:\.([A-Z_]+)|\[['"]([A-Z_]+)['"]\])/g)]
        .map((m) => m[1] ?? m[2])
        .filter((k) => keys.includes(k))
        .map((k) => `${f}: process.env.${k}`),
    );
  expect(offences).toEqual([]);
});
