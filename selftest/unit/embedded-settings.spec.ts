import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { ENV } from '../../harness/config/env-names.mjs';
import { fromRoot } from '../../harness/config/paths.js';
import { embeddedSandboxServer, prepareEmbeddedSandbox } from '../../embedded-sandbox.js';

// The embedded sandbox runs as Playwright's web server, in the configuration's folder (a staged
// package's, or the checkout): the SANDBOX_* settings of the user's .env reach it handed down,
// never from a .env of that folder.

/** A user's working folder holding `dotenv` as its .env. */
function userFolder(dotenv: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'obg-embedded-settings-'));
  writeFileSync(join(dir, '.env'), dotenv);
  return dir;
}

test("the embedded sandbox is given the SANDBOX_* of the user's .env, under the embedded run's own", () => {
  const dir = userFolder('SANDBOX_SCA_DELAY_MS=1234\nSANDBOX_LATENCY_MS=5\nSANDBOX_PORT=1\n');
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH };
  const sandbox = prepareEmbeddedSandbox(env, join(dir, '.env'))!;
  expect(sandbox).toMatchObject({ SANDBOX_SCA_DELAY_MS: '1234', SANDBOX_LATENCY_MS: '5', SANDBOX_QUIET: '1' });
  expect(sandbox.SANDBOX_PORT, "the embedded run's own port").toBe(new URL(env.TARGET_BASE_URL!).port);
  const server = embeddedSandboxServer(env.TARGET_BASE_URL!, sandbox) as { env: Record<string, string> };
  expect(server.env, 'handed down: the sandbox reads no .env of its folder').toMatchObject({
    SANDBOX_SCA_DELAY_MS: '1234',
    [ENV.settingsHandedDown]: '1',
  });
});

test("SANDBOX_SCA_DELAY_MS in the user's .env reaches the embedded sandbox of a run from another folder", () => {
  // Malformed, so that the sandbox's refusal shows it arrived (the run stops before any test).
  const cwd = userFolder('SANDBOX_SCA_DELAY_MS=not-a-delay\n');
  const run = spawnSync(
    process.execPath,
    [fromRoot('bin', 'obg-conformance.mjs'), 'run', '--', '--project=directory'],
    {
      cwd,
      // A clean environment: this worker's may hold a configuration's marks (another test imported it).
      env: { PATH: process.env.PATH, HOME: process.env.HOME, [ENV.quiet]: '1' },
      encoding: 'utf8',
      timeout: 120_000,
    },
  );
  const out = `${run.stdout}${run.stderr}`;
  expect(run.status, out.slice(-2000)).not.toBe(0);
  expect(out).toContain('sandbox: SANDBOX_SCA_DELAY_MS: "not-a-delay" is not a whole number of milliseconds');
});
