import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { fromRoot } from '../../harness/config/paths.js';
import { loadProfile } from '../../harness/config/profile.js';
import type { ConformanceReport } from '../../harness/reporter/conformance.js';
import { secondApplicationOf } from '../../sandbox/auth/clients.js';
import { DEFAULT_PKI_DIR, PKI_FILES } from '../../sandbox/tls/pki.js';
import { runDir } from '../support/run-dir.js';
import { startSandbox } from '../support/sandbox.js';

/**
 * `obg-conformance init` against a started reference sandbox writes .env and a profile in the
 * working folder; `obg-conformance run` of one area there, under that profile, is conformant.
 */
test('init against a started sandbox drafts .env and a valid profile; a run of the consents area under it is conformant', async () => {
  test.setTimeout(420_000);
  const sandbox = await startSandbox();
  const work = runDir('init');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, OBG_WORKERS: '3', OBG_QUIET: '1' };
  // Asynchronous: the sandbox answers from this process while the command runs.
  const bin = (args: string[], timeout: number) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
      const child = spawn(process.execPath, [fromRoot('bin', 'obg-conformance.mjs'), ...args], { cwd: work, env });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), timeout);
      child.on('close', (status) => {
        clearTimeout(timer);
        done({ status, stdout, stderr });
      });
    });
  try {
    const second = secondApplicationOf({ ...sandbox, redirectUris: [] });
    const init = await bin(
      [
        'init',
        '--yes',
        `--base-url=${sandbox.baseUrl}`,
        `--client-id=${sandbox.clientId}`,
        `--client-secret=${sandbox.clientSecret}`,
        `--second-client-id=${second.clientId}`,
        `--second-client-secret=${second.clientSecret}`,
        '--bicfi=SBXBSESS',
        '--psu-id=selftest-init-psu',
        '--psu-corporate-id=selftest-init-corp',
        `--signing-cert=${join(DEFAULT_PKI_DIR, PKI_FILES.tppCert)}`,
        `--signing-key=${join(DEFAULT_PKI_DIR, PKI_FILES.tppKey)}`,
        `--test-pki-dir=${DEFAULT_PKI_DIR}`,
        '--probe-consent',
        '--name=sandbox-bank',
      ],
      60_000,
    );
    expect(init.status, `${init.stdout}${init.stderr}`).toBe(0);
    expect(init.stdout).toContain('ASPSP detail of SBXBSESS: globalPaymentProducts');
    expect(init.stdout).toContain("SCA methods offered on a consent's authorisation: mbid");
    const profile = loadProfile(join(work, 'profiles', 'sandbox-bank.json'));
    expect(profile.sca?.methods).toContain('mbid');
    expect(readFileSync(join(work, '.env'), 'utf8')).toContain('TARGET_PROFILE=profiles/sandbox-bank.json');
    expect(existsSync(join(work, 'profiles', 'sandbox-bank.notes.md'))).toBe(true);

    const run = await bin(['run', '--', '--project=consents'], 360_000);
    const report = JSON.parse(readFileSync(join(work, 'reports', 'conformance.json'), 'utf8')) as ConformanceReport;
    expect(report.target.profile).toBe('profiles/sandbox-bank.json');
    expect(report.verdict, `${run.stdout}${run.stderr}`.slice(-3000)).toBe('conformant');
    expect(run.status).toBe(0);
    console.log(`init: a consents run under the drafted profile: ${report.totals.passed} passed, ${report.verdict}`);
  } finally {
    await sandbox.close();
  }
});
