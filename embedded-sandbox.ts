// The embedded reference sandbox, started by the composition root (playwright.config.ts) when no
// TARGET_BASE_URL is set. The suite (harness/, tests/) judges whatever bank it is pointed at and
// imports nothing from sandbox/; only this launcher, beside the configuration, knows the sandbox:
// its test PKI, its server, its settings.
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { PlaywrightTestConfig } from '@playwright/test';
import { ENV } from './harness/config/env-names.mjs';
import { readSettings } from './harness/config/settings.js';
import { EMBEDDED_DEFAULTS } from './harness/config/target.js';
import { DEFAULT_PKI_DIR, makePkiIfMissing, PKI_FILES } from './sandbox/tls/pki-files.js';

/** How long the embedded sandbox's decoupled SCA runs (SANDBOX_SCA_DELAY_MS sets another). */
export const EMBEDDED_SCA_DELAY_MS = 600;

const EMBEDDED_MARK = ENV.embeddedSandbox;

function freePort(): number {
  const script =
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}

/**
 * With no TARGET_BASE_URL, prepares the embedded sandbox: a free port and fresh credentials,
 * written to process.env so that Playwright's workers (which inherit it) see the same target.
 * Returns the environment for the sandbox process, or undefined when a real target is set.
 */
export function prepareEmbeddedSandbox(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv | undefined {
  const settings = readSettings(env);
  if (settings.TARGET_BASE_URL && env[EMBEDDED_MARK] !== '1') return undefined;
  if (env[EMBEDDED_MARK] !== '1') {
    const port = freePort();
    env[EMBEDDED_MARK] = '1';
    env.TARGET_BASE_URL = `http://127.0.0.1:${port}`;
    env.TARGET_AUTH_URL = env.TARGET_BASE_URL;
    env.CLIENT_ID = `sandbox-tpp-${randomBytes(3).toString('hex')}`;
    env.CLIENT_SECRET = `sbx-secret-${randomBytes(12).toString('hex')}`;
    env.SECOND_CLIENT_ID = `sandbox-tpp-${randomBytes(3).toString('hex')}-second`;
    env.SECOND_CLIENT_SECRET = `sbx-secret-${randomBytes(12).toString('hex')}`;
    env.ACCESS_TOKEN = '';
    env.PSU_ID = `psu-${randomBytes(5).toString('hex')}`;
    env.PSU_CORPORATE_ID = `corp-${randomBytes(5).toString('hex')}`;
    // The sandbox's test PKI (made once per machine): the suite signs with its TPP certificate.
    makePkiIfMissing();
    env.TPP_SIGNING_KEY_FILE = join(DEFAULT_PKI_DIR, PKI_FILES.tppKey);
    env.TPP_SIGNING_CERT_FILE = join(DEFAULT_PKI_DIR, PKI_FILES.tppCert);
    env.TPP_SIGNING_KEY_PASSPHRASE = '';
    env.TPP_TEST_PKI_DIR = DEFAULT_PKI_DIR;
    for (const [k, v] of Object.entries(EMBEDDED_DEFAULTS)) env[k] = v;
    // The reference sandbox takes any FX-Quote-Id: the embedded run brings a quote of its own.
    if (!settings.FX_QUOTE_ID) env.FX_QUOTE_ID = randomUUID();
  }
  return {
    SANDBOX_PORT: new URL(env.TARGET_BASE_URL!).port,
    SANDBOX_HOST: '127.0.0.1',
    SANDBOX_CLIENT_ID: env.CLIENT_ID,
    SANDBOX_CLIENT_SECRET: env.CLIENT_SECRET,
    SANDBOX_SECOND_CLIENT_ID: env.SECOND_CLIENT_ID,
    SANDBOX_SECOND_CLIENT_SECRET: env.SECOND_CLIENT_SECRET,
    SANDBOX_REDIRECT_URIS: env.REDIRECT_URI,
    SANDBOX_QUIET: '1',
    // A decoupled SCA ends on its own after this long (the sandbox's own default is 2000 ms): the
    // embedded run waits on nothing but the sandbox's clock, and the self-proof runs at this pace too.
    SANDBOX_SCA_DELAY_MS: env.SANDBOX_SCA_DELAY_MS || String(EMBEDDED_SCA_DELAY_MS),
  };
}

/** Playwright's web server for the embedded sandbox: started before the tests, stopped after them. */
export function embeddedSandboxServer(
  baseUrl: string,
  sandboxEnv: NodeJS.ProcessEnv,
): PlaywrightTestConfig['webServer'] {
  return {
    command: 'node --import tsx scripts/sandbox.ts',
    url: `${baseUrl}/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: { ...(process.env as Record<string, string>), ...(sandboxEnv as Record<string, string>) },
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 2_000 },
  };
}
