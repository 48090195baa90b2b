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
import { EMBEDDED_AT_DEFAULT, EMBEDDED_SETTINGS } from './harness/config/target.js';
import { handedDown, internal, loadSettings, passOn, SETTINGS_SCHEMA } from './harness/config/user-settings.mjs';
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
 * passed on in the environment (`env`, this process's unless given: passOn) so that Playwright's
 * workers (which inherit it) see the same target. Returns the settings for the sandbox process
 * (every SANDBOX_* the user set, in the environment or the working folder's .env, under the
 * embedded run's own), or undefined when a real target is set.
 */
export function prepareEmbeddedSandbox(env?: NodeJS.ProcessEnv, envFile?: string): Record<string, string> | undefined {
  const settings = readSettings(env, envFile);
  const embedded = internal('embeddedSandbox', env) === '1';
  if (settings.TARGET_BASE_URL && !embedded) return undefined;
  if (!embedded) {
    const port = freePort();
    const base = `http://127.0.0.1:${port}`;
    // The sandbox's test PKI (made once per machine): the suite signs with its TPP certificate.
    makePkiIfMissing();
    passOn(
      {
        [EMBEDDED_MARK]: '1',
        TARGET_BASE_URL: base,
        TARGET_AUTH_URL: base,
        CLIENT_ID: `sandbox-tpp-${randomBytes(3).toString('hex')}`,
        CLIENT_SECRET: `sbx-secret-${randomBytes(12).toString('hex')}`,
        SECOND_CLIENT_ID: `sandbox-tpp-${randomBytes(3).toString('hex')}-second`,
        SECOND_CLIENT_SECRET: `sbx-secret-${randomBytes(12).toString('hex')}`,
        ACCESS_TOKEN: '',
        PSU_ID: `psu-${randomBytes(5).toString('hex')}`,
        PSU_CORPORATE_ID: `corp-${randomBytes(5).toString('hex')}`,
        TPP_SIGNING_KEY_FILE: join(DEFAULT_PKI_DIR, PKI_FILES.tppKey),
        TPP_SIGNING_CERT_FILE: join(DEFAULT_PKI_DIR, PKI_FILES.tppCert),
        TPP_SIGNING_KEY_PASSPHRASE: '',
        TPP_TEST_PKI_DIR: DEFAULT_PKI_DIR,
        ...EMBEDDED_SETTINGS,
        ...Object.fromEntries(EMBEDDED_AT_DEFAULT.map((k) => [k, SETTINGS_SCHEMA.properties[k].default])),
        // The reference sandbox takes any FX-Quote-Id: the embedded run brings a quote of its own.
        ...(settings.FX_QUOTE_ID ? {} : { FX_QUOTE_ID: randomUUID() }),
      },
      env,
    );
  }
  const user = loadSettings(env, envFile);
  const own = Object.fromEntries(
    Object.keys(SETTINGS_SCHEMA.properties)
      .filter((k) => SETTINGS_SCHEMA.properties[k as keyof typeof SETTINGS_SCHEMA.properties].group === 'sandbox')
      .map((k) => [k, user[k as keyof typeof SETTINGS_SCHEMA.properties]])
      .filter(([, v]) => v),
  );
  return {
    ...own,
    SANDBOX_PORT: new URL(user.TARGET_BASE_URL).port,
    SANDBOX_HOST: '127.0.0.1',
    SANDBOX_CLIENT_ID: user.CLIENT_ID,
    SANDBOX_CLIENT_SECRET: user.CLIENT_SECRET,
    SANDBOX_SECOND_CLIENT_ID: user.SECOND_CLIENT_ID,
    SANDBOX_SECOND_CLIENT_SECRET: user.SECOND_CLIENT_SECRET,
    SANDBOX_REDIRECT_URIS: user.REDIRECT_URI,
    SANDBOX_QUIET: '1',
    // A decoupled SCA ends on its own after this long (the sandbox's own default is 2000 ms): the
    // embedded run waits on nothing but the sandbox's clock, and the self-proof runs at this pace too.
    SANDBOX_SCA_DELAY_MS: user.SANDBOX_SCA_DELAY_MS || String(EMBEDDED_SCA_DELAY_MS),
  };
}

/** Playwright's web server for the embedded sandbox: started before the tests, stopped after them. */
export function embeddedSandboxServer(
  baseUrl: string,
  sandboxEnv: Record<string, string>,
): PlaywrightTestConfig['webServer'] {
  return {
    command: 'node --import tsx scripts/sandbox.ts',
    url: `${baseUrl}/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    // The resolved settings handed down: the sandbox, started in this folder (the package's),
    // reads no .env of its own (scripts/sandbox.ts).
    env: { ...handedDown(), ...sandboxEnv },
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 2_000 },
  };
}
