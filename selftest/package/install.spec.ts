import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { fromRoot } from '../../harness/config/paths.js';
import type { ConformanceReport } from '../../harness/reporter/report.js';
import { commandAsync } from '../support/command.js';
import { runDir } from '../support/run-dir.js';
import { ENV } from '../../harness/config/env-names.mjs';
import { firstContact } from './first-contact.js';

/**
 * The suite as a bank installs it: `npm pack`, then `npm install <tarball>` into an empty folder
 * outside the repository (from the npm cache, which the repository's own install has filled), and
 * `npx obg-conformance` there: its help, and one area against the embedded sandbox, with the
 * reports under that folder.
 */
test('the packed tarball installs into an empty folder and runs one area there, conformant, reports in that folder', async () => {
  test.setTimeout(900_000);
  const work = runDir('package');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  // One worker: the run is one area of quick checks, and a second worker costs its start.
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, [ENV.workers]: '1' };
  const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], {
    cwd: fromRoot(),
    encoding: 'utf8',
    env,
  })
    .trim()
    .split('\n')
    .at(-1)!;
  const tarball = join(work, packed);
  expect(existsSync(tarball), `npm pack wrote ${tarball}`).toBe(true);

  const app = join(work, 'bank');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'bank-pipeline', private: true }));
  const installStarted = Date.now();
  const install = spawnSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], {
    cwd: app,
    env,
    encoding: 'utf8',
    timeout: 300_000,
  });
  expect(install.status, `npm install:\n${install.stdout}${install.stderr}`).toBe(0);
  // No engine warning on the oldest Node the package supports: every dependency it installs runs
  // there (light-my-request is pinned to the last release whose cookie parser takes Node 20).
  expect(`${install.stdout}${install.stderr}`, 'npm install warned of an engine').not.toContain('EBADENGINE');
  const installMs = Date.now() - installStarted;
  const pkg = JSON.parse(readFileSync(join(app, 'node_modules', 'obg-conformance', 'package.json'), 'utf8'));
  // The tarball holds the suite, not the self-tests or any report.
  const files = readdirSync(join(app, 'node_modules', 'obg-conformance'));
  expect(files).not.toContain('selftest');
  expect(files).not.toContain('reports');
  expect(pkg.bin['obg-conformance']).toBeTruthy();

  const npx = (args: string[], timeout = 60_000) =>
    spawnSync('npx', ['--no-install', 'obg-conformance', ...args], { cwd: app, env, encoding: 'utf8', timeout });
  const help = npx(['--help']);
  expect(help.status, help.stderr).toBe(0);
  expect(help.stdout).toContain('Usage: obg-conformance <command>');
  const runHelp = npx(['run', '--help']);
  expect(runHelp.stdout).toContain('Usage: obg-conformance run');

  const run = npx(['run', '--', '--project=directory'], 420_000);
  const out = `${run.stdout}${run.stderr}`;
  expect(run.status, out.slice(-3000)).toBe(0);
  const report = JSON.parse(readFileSync(join(app, 'reports', 'conformance.json'), 'utf8')) as ConformanceReport;
  expect(report.verdict).toBe('conformant');
  expect(report.totals.passed).toBeGreaterThan(0);
  for (const f of ['conformance.md', 'junit.xml', 'allure-results'])
    expect(existsSync(join(app, 'reports', f)), f).toBe(true);
  // The Allure HTML only when asked: `report` builds it from the run's results.
  expect(existsSync(join(app, 'reports', 'allure-report.html')), 'an Allure HTML nobody asked for').toBe(false);
  const html = npx(['report'], 180_000);
  expect(html.status, `${html.stdout}${html.stderr}`.slice(-3000)).toBe(0);
  for (const f of ['allure-report.html', join('allure-report', 'index.html')])
    expect(existsSync(join(app, 'reports', f)), f).toBe(true);
  console.log(
    `package: ${packed} installed and run in ${app}: ${report.totals.passed} passed, verdict ${report.verdict}`,
  );

  // A SANDBOX_* setting in the user's .env reaches the embedded sandbox the installed command starts
  // (from its staged copy, in another folder): a malformed one stops it, named.
  const userFolder = join(app, 'sandbox-settings');
  mkdirSync(userFolder);
  writeFileSync(join(userFolder, '.env'), 'SANDBOX_SCA_DELAY_MS=not-a-delay\n');
  const stopped = spawnSync('npx', ['--no-install', 'obg-conformance', 'run', '--', '--project=directory'], {
    cwd: userFolder,
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(stopped.status, 'the embedded sandbox refused its setting').not.toBe(0);
  expect(`${stopped.stdout}${stopped.stderr}`).toContain('SANDBOX_SCA_DELAY_MS: "not-a-delay"');

  // The same install, from an empty folder of its own, against a bank laid out as another vendor's.
  await firstContact(app, installMs, (cwd, args, timeout, more) => npxAsync(cwd, { ...env, ...more }, args, timeout));

  // The staged copy the installed command ran from (outside node_modules) goes with the test's folder.
  for (const name of readdirSync(tmpdir()).filter((n) => n.startsWith(`obg-conformance-${pkg.version}-`))) {
    const stamp = join(tmpdir(), name, '.staged');
    if (existsSync(stamp) && readFileSync(stamp, 'utf8').startsWith(app))
      rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
  // The installed copy (a whole node_modules, Playwright's own sources among them) goes too: the
  // run's reports stay for a look, nothing of a third party's code stays in the work tree.
  rmSync(join(app, 'node_modules'), { recursive: true, force: true });
});

/** `npx obg-conformance <args>` in `cwd`, asynchronous: a bank in this process answers while it runs. */
const npxAsync = (cwd: string, env: NodeJS.ProcessEnv, args: string[], timeout: number) =>
  commandAsync('npx', ['--no-install', 'obg-conformance', ...args], { cwd, env, timeout });
