import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import type { ConformanceReport } from '../../harness/reporter/report.js';
import { startMovedBank, startNowhereBank, type MovedBank } from '../support/moved-bank.js';

type Command = (
  cwd: string,
  args: string[],
  timeout: number,
  env?: NodeJS.ProcessEnv,
) => Promise<{ status: number | null; stdout: string; stderr: string }>;

/** `init --yes` with flags against the moved bank: what it must draft, and the seconds it took. */
async function initMoved(bank: MovedBank, dir: string, npx: Command) {
  const started = Date.now();
  const init = await npx(
    dir,
    [
      'init',
      '--yes',
      `--base-url=${bank.baseUrl}`,
      `--client-id=${bank.sandbox.clientId}`,
      `--client-secret=${bank.sandbox.clientSecret}`,
      '--bicfi=SBXBSESS',
      '--psu-id=selftest-first-contact',
      `--redirect-uri=${bank.sandbox.redirectUri}`,
      '--probe-consent',
    ],
    120_000,
  );
  const out = `${init.stdout}${init.stderr}`;
  expect(init.status, out).toBe(0);
  const profile = JSON.parse(readFileSync(join(dir, 'profiles', 'bank.json'), 'utf8')) as {
    draft?: boolean;
    features: string[];
    paths: Record<string, string>;
    oauth: Record<string, string>;
    requiredHeaders?: unknown[];
  };
  // Only what answered is claimed; the three areas that answer 404 are listed, not claimed.
  expect(profile.draft).toBe(true);
  expect(profile.features).toEqual(expect.arrayContaining(['consents', 'accounts', 'payments', 'sca.redirect']));
  for (const absent of ['directory', 'signing-baskets', 'direct-debit'])
    expect(profile.features, `${absent} answered 404: not claimed`).not.toContain(absent);
  expect(profile.paths).toEqual({
    consents: 'berlingroup/v1/consents',
    accounts: 'berlingroup/v1/accounts',
    payments: 'berlingroup/v1',
  });
  // The endpoints its RFC 8414 metadata publishes; the header its refusals name.
  expect(profile.oauth).toEqual({ tokenPath: 'token', authorizePath: 'auth' });
  expect(profile.requiredHeaders).toEqual([{ name: 'Date', generated: 'date' }]);
  const env = readFileSync(join(dir, '.env'), 'utf8');
  expect(env).toContain(`TARGET_AUTH_URL=${bank.baseUrl}/auth/realms/bank/protocol/openid-connect\n`);
  expect(statSync(join(dir, '.env')).mode & 0o777).toBe(0o600);
  const notes = readFileSync(join(dir, 'profiles', 'bank.notes.md'), 'utf8');
  expect(notes).toMatch(
    /signing baskets: not found, not claimed \(.*\)\. To claim it: add "signing-baskets" to features/,
  );
  expect(out).toContain("this profile is init's unreviewed draft");
  return (Date.now() - started) / 1000;
}

/**
 * A bank that answers 404 everywhere: init stops with exit 3 naming the paths it tried and their
 * keys; the run under the draft, pointed at it (tokens still from the moved bank's endpoint), stops
 * at its early probe with exit 3 naming the paths read and the profile keys that set them.
 */
async function nowhere(dir: string, npx: Command) {
  const bank = await startNowhereBank();
  try {
    const empty = join(dir, 'nowhere');
    mkdirSync(empty, { recursive: true });
    const args = [
      'init',
      '--yes',
      `--base-url=${bank.baseUrl}`,
      '--client-id=c',
      '--client-secret=s',
      '--bicfi=SBXBSESS',
    ];
    const init = await npx(empty, args, 60_000);
    expect(init.status, `${init.stdout}${init.stderr}`).toBe(3);
    expect(init.stderr).toContain('GET /psd2/consent/v1/consents/{id}/status → 404');
    expect(init.stderr).toContain('consents (paths.consents)');
    const env = { TARGET_BASE_URL: bank.baseUrl, REPORTS_DIR: 'reports-nowhere' };
    const run = await npx(dir, ['run', '--', '--project=consents'], 120_000, env);
    const out = `${run.stdout}${run.stderr}`;
    expect(run.status, out.slice(-2000)).toBe(3);
    expect(out).toContain('every read answered 404 or an HTML page');
    expect(out).toContain('GET /berlingroup/v1/consents/');
    expect(out).toContain('(paths.consents)');
  } finally {
    await bank.close();
  }
}

/**
 * First contact: from an empty folder beside the installed package, `init --yes` with flags
 * against a bank whose paths, token and authorise endpoints are not the specification's, then a
 * run of the consents area under the draft (a first verdict on the bank's real paths); and a bank
 * that answers 404 everywhere stops init and the run with exit 3, naming the paths.
 */
export async function firstContact(app: string, installMs: number, npx: Command) {
  const dir = join(app, 'first-contact');
  mkdirSync(dir, { recursive: true });
  const bank = await startMovedBank();
  try {
    const initSeconds = await initMoved(bank, dir, npx);
    const started = Date.now();
    const beforeRun = bank.seen.length;
    const run = await npx(dir, ['run', '--', '--project=consents'], 420_000);
    const runSeconds = (Date.now() - started) / 1000;
    const out = `${run.stdout}${run.stderr}`;
    const report = JSON.parse(readFileSync(join(dir, 'reports', 'conformance.json'), 'utf8')) as ConformanceReport;
    expect(report.target.draft, 'the report names the draft').toBe(true);
    expect(out).toContain("this profile is init's unreviewed draft");
    const create = report.requirements.find((r) => r.id === 'consents.create.response');
    expect(create?.verdict, out.slice(-3000)).toBe('passed');
    expect(
      bank.seen.slice(beforeRun).filter((s) => /^\S+ \/(psd2|connect|iso)\//.test(s)),
      "the run calls nothing at the specification's paths (init asked them, and they answered 404)",
    ).toEqual([]);
    console.log(
      `first contact: tarball install ${Math.round(installMs / 1000)} s + init ${Math.round(initSeconds)} s + consents run ${Math.round(runSeconds)} s = ${Math.round(installMs / 1000 + initSeconds + runSeconds)} s to a first verdict on the bank's real paths (${report.totals.passed} passed, ${report.verdict})`,
    );
    await nowhere(dir, npx);
  } finally {
    await bank.close();
  }
}
