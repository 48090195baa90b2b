import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { fromRoot } from '../../harness/config/paths.js';
import { profileFile } from '../../harness/config/profile.js';
import { nightlySummary } from '../../harness/reporter/history.js';
import {
  listsOnly,
  readerPsuProblem,
  reportsDirOf,
  workersOf,
  withoutTargetSettings,
} from '../../harness/config/run-options.mjs';
import { ENV } from '../../harness/config/env-names.mjs';
import { allureHtmlOf } from '../../scripts/allure-html.mjs';
import ConsoleReporter from '../../harness/reporter/console.js';

// The runner's own decisions (harness/config/run-options.mjs, scripts/conformance.mjs, bin/obg-conformance.mjs).

const folder = () => mkdtempSync(join(tmpdir(), 'obg-runner-'));
/** `obg-conformance <args>` in `cwd`, with only the environment given. */
const command = (args: string[], cwd: string, env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [fromRoot('bin', 'obg-conformance.mjs'), ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    encoding: 'utf8',
    timeout: 90_000,
  });

test('REPORTS_DIR is read from .env in the working folder, relative to it; the environment wins', () => {
  const cwd = folder();
  expect(reportsDirOf({}, cwd)).toBe(join(cwd, 'reports'));
  writeFileSync(join(cwd, '.env'), 'REPORTS_DIR=out/conformance\n');
  expect(reportsDirOf({}, cwd)).toBe(join(cwd, 'out', 'conformance'));
  expect(reportsDirOf({ REPORTS_DIR: '/abs/where' }, cwd)).toBe('/abs/where');
});

test('a relative TARGET_PROFILE is a path in the working folder; a name is profiles/<name>.json there, else the suite’s', () => {
  const cwd = folder();
  expect(profileFile('bank.json', cwd)).toBe(join(cwd, 'bank.json'));
  expect(profileFile('conf/bank.json', cwd)).toBe(join(cwd, 'conf', 'bank.json'));
  expect(profileFile('reference', cwd)).toBe(fromRoot('profiles', 'reference.json'));
  mkdirSync(join(cwd, 'profiles'));
  writeFileSync(join(cwd, 'profiles', 'reference.json'), '{}');
  expect(profileFile('reference', cwd)).toBe(join(cwd, 'profiles', 'reference.json'));
});

test('workers: --workers, else OBG_WORKERS, else 10; a bad value is named', () => {
  expect(workersOf([], {}, folder())).toEqual({ workers: 10 });
  expect(workersOf([], { [ENV.workers]: '4' }, folder())).toEqual({ workers: 4 });
  expect(workersOf(['--workers=2'], { [ENV.workers]: '4' }, folder())).toEqual({ workers: 2 });
  expect(workersOf(['-j', '3'], {}, folder())).toEqual({ workers: 3 });
  expect(workersOf([], { [ENV.workers]: 'many' }, folder()).error).toMatch(
    /^OBG_WORKERS: "many" is not a number of workers/,
  );
  expect(workersOf(['--workers=0'], {}, folder()).error).toMatch(/^--workers: "0"/);
});

test('accounts.readerPsuIds must name at least as many PSUs as the run has workers', () => {
  const profile = { accounts: { readerPsuIds: ['p1', 'p2', 'p3'] } };
  expect(readerPsuProblem(profile, 3)).toBeUndefined();
  expect(readerPsuProblem({}, 10)).toBeUndefined();
  expect(readerPsuProblem(profile, 10, 'bank')).toBe(
    'accounts.readerPsuIds (bank): names 3 PSU(s) and the run has 10 workers (OBG_WORKERS or --workers; default 10): ' +
      "each worker's accounts checks need a PSU of their own. Name at least 10 PSU ids, or run with --workers=3.",
  );
});

test('a first run lists its failures as failing, not as new failures (there is no previous run to be new against)', () => {
  const report = {
    target: { baseUrl: 'https://bank.example', profile: 'bank', embedded: false },
    startedAt: '2026-11-22T01:00:00Z',
    finishedAt: '2026-11-22T01:10:00Z',
    verdict: 'not-conformant' as const,
    totals: { passed: 1, failed: 2, warning: 0, skipped: 0, broken: 0, blocked: 0, untested: 0 },
    requirements: [
      { id: 'a.b', verdict: 'failed' },
      { id: 'c.d', verdict: 'failed' },
    ] as never,
  };
  const s = nightlySummary(report, {
    newlyFailing: [],
    noLongerJudged: [],
    newlyPassing: [],
    changedMessages: [],
    flaky: [],
    window: 10,
  });
  expect(s.newFailures).toEqual([]);
  expect(s.line).not.toContain('new failures');
  expect(s.line).toContain('; failing (no previous run): a.b, c.d');
});

test('--list lists the tests and writes nothing: no report removed, no history record', () => {
  expect(listsOnly(['--list', '--project=directory'])).toBe(true);
  const cwd = folder();
  mkdirSync(join(cwd, 'reports'));
  writeFileSync(join(cwd, 'reports', 'conformance.md'), 'the last run\n');
  const run = command(['run', '--', '--list', '--project=directory'], cwd);
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toContain('directory');
  expect(readFileSync(join(cwd, 'reports', 'conformance.md'), 'utf8')).toBe('the last run\n');
  expect(existsSync(join(cwd, 'reports', 'history'))).toBe(false);
  expect(readdirSync(join(cwd, 'reports'))).toEqual(['conformance.md']);
});

test('the Allure HTML only when asked: --allure, else ALLURE_HTML (environment, else .env), default off; a bad value is named', () => {
  const cwd = folder();
  expect(allureHtmlOf([], {}, cwd)).toEqual({ on: false });
  expect(allureHtmlOf(['--allure'], {}, cwd)).toEqual({ on: true });
  expect(allureHtmlOf([], { ALLURE_HTML: 'on' }, cwd)).toEqual({ on: true });
  expect(allureHtmlOf([], { ALLURE_HTML: '0' }, cwd)).toEqual({ on: false });
  writeFileSync(join(cwd, '.env'), 'ALLURE_HTML=yes\n');
  expect(allureHtmlOf([], {}, cwd)).toEqual({ on: true });
  expect(allureHtmlOf([], { ALLURE_HTML: 'off' }, cwd)).toEqual({ on: false });
  expect(allureHtmlOf([], { ALLURE_HTML: 'sometimes' }, cwd).error).toContain(
    'ALLURE_HTML: "sometimes" is neither on nor off',
  );
  // The command stops before any test, naming the key; `report` without results says there are none.
  const run = command(['run', '--', '--project=directory'], cwd, { ALLURE_HTML: 'sometimes' });
  expect(run.status, `${run.stdout}${run.stderr}`).toBe(2);
  expect(run.stderr).toContain('ALLURE_HTML: "sometimes" is neither on nor off');
  const report = command(['report'], cwd);
  expect(report.status).toBe(2);
  expect(report.stderr).toContain('no Allure results at');
});

test('a configuration error prints its message and a hint, exit 2, no stack; DEBUG=obg shows the stack', () => {
  const cwd = folder();
  const run = command(['run', '--', '--project=directory'], cwd, { TARGET_BASE_URL: 'not-a-url' });
  const out = `${run.stdout}${run.stderr}`;
  expect(run.status, out).toBe(2);
  expect(out).toContain('configuration error: TARGET_BASE_URL (environment): "not-a-url" is not an absolute URL');
  expect(out).toContain('hint: ');
  expect(out).not.toMatch(/^\s+at /m);
  expect(out).not.toContain('no verdict was written');
  const debug = command(['run', '--', '--project=directory'], cwd, { TARGET_BASE_URL: 'not-a-url', DEBUG: 'obg' });
  expect(`${debug.stdout}${debug.stderr}`).toMatch(/^\s+at /m);
  // The same for a setting read from .env in the working folder, and for the workers.
  writeFileSync(join(cwd, '.env'), `${ENV.workers}=lots\n`);
  const workers = command(['run', '--', '--project=directory'], cwd);
  expect(workers.status).toBe(2);
  expect(workers.stderr).toContain(`${ENV.workers}: "lots" is not a number of workers`);
});

test('every process of a run checks the same settings: more workers than reader PSUs, no accounts checks, runs', () => {
  const cwd = folder();
  // The reference profile names 16 reader PSUs; the accounts checks are not chosen, so 17 workers
  // need none each. A worker (which reads playwright.config.ts without the command line) once
  // took the run for a whole one and stopped it on a configuration error.
  const run = command(
    [
      'run',
      '--',
      '--project=directory',
      '--workers=17',
      '--grep',
      '@directory.aspsps.list-shape|@directory.aspsp.detail-shape',
    ],
    cwd,
    { [ENV.quiet]: '1' },
  );
  const out = `${run.stdout}${run.stderr}`;
  expect(out).not.toContain('configuration error');
  expect(run.status, out).toBe(0);
  expect(existsSync(join(cwd, 'reports', 'conformance.json')), out).toBe(true);
});

test('a configuration error every started worker says is printed once, its hint once; other output passes', () => {
  const reporter = new ConsoleReporter({ progress: false });
  const written: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array) => (written.push(String(chunk)), true)) as typeof write;
  try {
    const said = 'obg-conformance: configuration error: profile bank is invalid:\n  - a field\n';
    const hint = 'hint: settings come from the environment or .env in the working folder.\n';
    // Two workers, each its message and its hint; then a line of the sandbox's, twice.
    for (const chunk of [said, hint, said, hint, 'sandbox: listening\n', 'sandbox: listening\n'])
      reporter.onStdErr(chunk);
  } finally {
    process.stderr.write = write;
  }
  expect(written.filter((w) => w.includes('configuration error'))).toHaveLength(1);
  expect(written.filter((w) => w.startsWith('hint:'))).toHaveLength(1);
  expect(written.filter((w) => w.includes('sandbox: listening'))).toHaveLength(2);
});

test('every command answers --help with its options and the exit codes; an unknown command is a usage error', () => {
  const cwd = folder();
  const main = command(['--help'], cwd);
  expect(main.status).toBe(0);
  for (const c of ['run', 'report', 'sandbox', 'init', 'certify', 'verify', 'merge', 'catalogue']) {
    expect(main.stdout).toContain(`  ${c} `);
    const help = command([c, '--help'], cwd);
    expect(help.status, c).toBe(0);
    expect(help.stdout, c).toContain(`Usage: obg-conformance ${c}`);
  }
  const run = command(['run', '--help'], cwd).stdout;
  for (const text of ['TARGET_BASE_URL', 'REPORTS_DIR', ENV.workers, '3  target unavailable', '2  configuration error'])
    expect(run).toContain(text);
  const unknown = command(['judge'], cwd);
  expect(unknown.status).toBe(2);
  expect(unknown.stderr).toContain('unknown command "judge"');
});

test("a run against the embedded sandbox takes none of the caller's target settings, per-scope tokens included", () => {
  const env = withoutTargetSettings({
    PATH: '/bin',
    TARGET_BASE_URL: 'https://bank.example',
    TARGET_AUTH_URL: 'https://auth.bank.example',
    CLIENT_ID: 'id',
    CLIENT_SECRET: 'secret',
    ACCESS_TOKEN: 'token',
    ACCESS_TOKEN_PAYMENTINITIATION_CORPORATE: 'scope-token',
    TARGET_PROFILE: 'bank',
  });
  expect(env).toEqual({ PATH: '/bin' });
});
