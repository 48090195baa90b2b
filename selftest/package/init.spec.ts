import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { noChromium, test } from '../support/test.js';
import { fromRoot } from '../../harness/config/paths.js';
import { loadProfile } from '../../harness/config/profile.js';
import type { ConformanceReport } from '../../harness/reporter/report.js';
import { secondApplicationOf } from '../../sandbox/auth/clients.js';
import { DEFAULT_PKI_DIR, PKI_FILES } from '../../sandbox/tls/pki.js';
import { commandAsync } from '../support/command.js';
import { runDir } from '../support/run-dir.js';
import { startSandbox } from '../support/sandbox.js';
import { startMovedBank } from '../support/moved-bank.js';
import { startServer } from '../support/servers.js';
import { noAuthentication, unknownIds } from '../support/unfair-fronts.js';
import { ENV } from '../../harness/config/env-names.mjs';

/** The readings the profile schema lets a profile leave at "either" (profiles/profile.schema.ts). */
const EITHER_READINGS = [
  ['consents', 'deleteAnswer'],
  ['payments', 'cancelAnswer'],
  ['signingBaskets', 'afterDelete'],
] as const;

/** `obg-conformance <args>` in `cwd`, asynchronous: the sandbox answers from this process while the command runs. */
const bin = (cwd: string, env: NodeJS.ProcessEnv, args: string[], timeout: number) =>
  commandAsync(process.execPath, [fromRoot('bin', 'obg-conformance.mjs'), ...args], { cwd, env, timeout });

/** The arguments of `init --yes` that name the sandbox, its client and the PSU: what both tests give. */
const initArgs = (sandbox: { baseUrl: string; clientId: string; clientSecret: string }, name: string) => [
  'init',
  '--yes',
  `--base-url=${sandbox.baseUrl}`,
  `--client-id=${sandbox.clientId}`,
  `--client-secret=${sandbox.clientSecret}`,
  '--bicfi=SBXBSESS',
  '--psu-id=selftest-init-psu',
  '--probe-consent',
  `--name=${name}`,
];

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
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    // One worker for the consents run: a worker's start costs more CPU than the waits it would share.
    [ENV.workers]: '1',
    [ENV.quiet]: '1',
    // The application's whitelisted redirect URI: the probe consent prefers the redirect approach with it.
    REDIRECT_URI: sandbox.redirectUri,
  };
  try {
    const second = secondApplicationOf({ ...sandbox, redirectUris: [] });
    const init = await bin(
      work,
      env,
      [
        ...initArgs(sandbox, 'sandbox-bank'),
        `--second-client-id=${second.clientId}`,
        `--second-client-secret=${second.clientSecret}`,
        '--psu-corporate-id=selftest-init-corp',
        `--signing-cert=${join(DEFAULT_PKI_DIR, PKI_FILES.tppCert)}`,
        `--signing-key=${join(DEFAULT_PKI_DIR, PKI_FILES.tppKey)}`,
        `--test-pki-dir=${DEFAULT_PKI_DIR}`,
      ],
      60_000,
    );
    expect(init.status, `${init.stdout}${init.stderr}`).toBe(0);
    expect(init.stdout).toContain('ASPSP detail of SBXBSESS: globalPaymentProducts');
    expect(init.stdout).toContain('one consent: SCA methods mbid');
    const profile = loadProfile(join(work, 'profiles', 'sandbox-bank.json'));
    expect(profile.sca?.methods).toContain('mbid');
    expect(readFileSync(join(work, '.env'), 'utf8')).toContain('TARGET_PROFILE=profiles/sandbox-bank.json');
    expect(existsSync(join(work, 'profiles', 'sandbox-bank.notes.md'))).toBe(true);
    // Every reading the profile can pin is left at "either" (or absent: the schema's default).
    const drafted = JSON.parse(readFileSync(join(work, 'profiles', 'sandbox-bank.json'), 'utf8')) as Record<
      string,
      Record<string, unknown> | undefined
    >;
    for (const [section, key] of EITHER_READINGS)
      expect(drafted[section]?.[key] ?? 'either', `${section}.${key} left at "either"`).toBe('either');
    const notes = readFileSync(join(work, 'profiles', 'sandbox-bank.notes.md'), 'utf8');
    for (const [section, key] of EITHER_READINGS) expect(notes).toContain(`\`${section}.${key}\`: "either"`);
    expect(notes, 'a reading without "either" says how to find the bank\'s').toMatch(
      /`payments\.startAuthorisationBody`: "flow-guide", the reference sandbox's .*To find which: /,
    );
    // The PSU agent: the consent's authorise page is the sandbox's static form.
    expect(profile.sca?.psuAgent).toBe('form');
    expect(notes).toMatch(
      /`sca\.psuAgent`: "form": the start-authorisation answer's scaOAuth \(mbid\) is a static HTML form/,
    );

    const run = await bin(work, env, ['run', '--', '--project=consents'], 360_000);
    const report = JSON.parse(readFileSync(join(work, 'reports', 'conformance.json'), 'utf8')) as ConformanceReport;
    expect(report.target.profile).toBe('profiles/sandbox-bank.json');
    // One area: a refusal whose positive control lives in another area keeps its verdict there
    // (harness/reporter/fold.ts: a run of some areas judges the control in a whole run).
    const output = `${run.stdout}${run.stderr}`.slice(-3000);
    expect(report.totals, output).toMatchObject({ failed: 0, broken: 0, blocked: 0, untested: 0 });
    expect(report.totals.passed).toBeGreaterThan(30);
    expect(report.verdict, output).toBe('conformant');
    expect(run.status, output).toBe(0);
    console.log(`init: a consents run under the drafted profile: ${report.totals.passed} passed, ${report.verdict}`);
  } finally {
    await sandbox.close();
  }
});

/**
 * The PSU agent chosen by the authorise page: on a page a script builds (no form in the HTML),
 * "browser" with the steps read from the page as Chromium renders it, or "manual" without Chromium.
 */
test('init on a bank whose authorise page is built by a script chooses the browser agent (or manual without Chromium) and says why', async () => {
  test.setTimeout(120_000);
  const sandbox = await startSandbox({ variants: ['redirect.login-page-script'] });
  const work = runDir('init-agent');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    CHROMIUM_PATH: process.env.CHROMIUM_PATH ?? '',
    REDIRECT_URI: sandbox.redirectUri,
  };
  try {
    const init = await bin(work, env, initArgs(sandbox, 'scripted-bank'), 60_000);
    expect(init.status, `${init.stdout}${init.stderr}`).toBe(0);
    const profile = loadProfile(join(work, 'profiles', 'scripted-bank.json'));
    const notes = readFileSync(join(work, 'profiles', 'scripted-bank.notes.md'), 'utf8');
    const why = 'holds no form in its HTML (a script builds the page), which the form agent cannot read';
    // init finds its browser as the browser agent does (harness/config/chromium.ts).
    if (!noChromium()) {
      expect(profile.sca?.psuAgent).toBe('browser');
      expect(notes).toContain(`\`sca.psuAgent\`: "browser": the start-authorisation answer's scaOAuth (mbid) ${why}`);
      expect(profile.sca?.browser?.approve, 'the login steps read from the rendered page').toEqual([
        { fill: '#psu-id', from: 'PSU_LOGIN_USERNAME' },
        { fill: '#password', from: 'PSU_LOGIN_PASSWORD' },
        { click: '#approve' },
        { waitForRedirect: true },
      ]);
      expect(readFileSync(join(work, '.env'), 'utf8')).toMatch(/^PSU_LOGIN_PASSWORD=$/m);
    } else {
      expect(profile.sca?.psuAgent).toBe('manual');
      expect(notes).toContain(`\`sca.psuAgent\`: "manual": the start-authorisation answer's scaOAuth (mbid) ${why}`);
    }
  } finally {
    await sandbox.close();
  }
});

/**
 * A TPP with a pre-issued token: init tries no token endpoint and writes ACCESS_TOKEN; rewritten
 * with --force for client credentials, .env keeps that token (init has no value for it) and stays
 * mode 600.
 */
test('init with a pre-issued token tries no token endpoint; --force keeps the ACCESS_TOKEN it does not replace; .env mode 600', async () => {
  test.setTimeout(120_000);
  const bank = await startMovedBank();
  const work = runDir('init-token');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const env = { PATH: process.env.PATH, HOME: process.env.HOME };
  try {
    const { clientId, clientSecret } = bank.sandbox;
    // A token of the bank, as its developer portal would hand one out.
    const issued = await fetch(`${bank.sandbox.baseUrl}/connect/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret,
        scope: 'accountinformation private',
      }),
    });
    const token = ((await issued.json()) as { access_token: string }).access_token;
    const common = ['init', '--yes', `--base-url=${bank.baseUrl}`, '--bicfi=SBXBSESS', '--name=token-bank'];
    const init = await bin(work, env, [...common, '--auth=token', `--access-token=${token}`], 60_000);
    expect(init.status, `${init.stdout}${init.stderr}`).toBe(0);
    expect(
      bank.seen.filter((s) => s.startsWith('POST ') && /token/.test(s)),
      'no token endpoint tried',
    ).toEqual([]);
    const envFile = join(work, '.env');
    expect(readFileSync(envFile, 'utf8')).toContain(`ACCESS_TOKEN=${token}\n`);
    expect(statSync(envFile).mode & 0o777).toBe(0o600);
    expect(init.stdout, 'the token never shows').not.toContain(token);
    expect(loadProfile(join(work, 'profiles', 'token-bank.json')).features).toContain('consents');
    // The bank publishes a token endpoint: it takes authentication, whatever a call without it gets.
    expect(loadProfile(join(work, 'profiles', 'token-bank.json')).authentication).toBe('bearer');
    expect(init.stdout).toContain(
      'init: authentication: bearer tokens (the bank has a token endpoint: its tokens are sent)',
    );

    chmodSync(envFile, 0o644);
    const again = await bin(
      work,
      env,
      [...common, '--force', `--client-id=${clientId}`, `--client-secret=${clientSecret}`],
      60_000,
    );
    expect(again.status, `${again.stdout}${again.stderr}`).toBe(0);
    const text = readFileSync(envFile, 'utf8');
    expect(text).toContain(`ACCESS_TOKEN=${token}\n`);
    expect(text).toContain(`CLIENT_ID=${clientId}\n`);
    expect(statSync(envFile).mode & 0o777).toBe(0o600);
    expect(again.stdout).toContain('kept from the former file: ACCESS_TOKEN');
  } finally {
    await bank.close();
  }
});

/** A bank that does not answer at all: init stops after a few calls with exit 3, instead of waiting out every probe. */
test('init against a closed port stops after a few unanswered calls: exit 3, nothing written', async () => {
  const work = runDir('init-closed');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const closed = await startServer(() => undefined);
  const { baseUrl } = closed;
  await closed.close();
  const env = { PATH: process.env.PATH, HOME: process.env.HOME };
  const args = ['init', '--yes', `--base-url=${baseUrl}`, '--client-id=c', '--client-secret=s', '--bicfi=SBXBSESS'];
  const init = await bin(work, env, args, 60_000);
  expect(init.status, `${init.stdout}${init.stderr}`).toBe(3);
  expect(init.stderr).toMatch(
    /init: the bank does not answer: 4 calls in a row got no answer, the last .*ECONNREFUSED/,
  );
  expect(existsSync(join(work, '.env')), 'nothing written').toBe(false);
});

/** Checks of each area drafted, whose every step the bank behind the front serves: the first run on the draft judges them. */
const FIRST_RUN = [
  'consents.create.response',
  'consents.unknown.code',
  'accounts.list.shape',
  'payments.initiate.response',
  'payments.read.unknown',
];

test('init against a bank answering unknown ids 404 RESOURCE_UNKNOWN drafts consents, accounts and payments; the first run on the draft judges them', async () => {
  test.setTimeout(360_000);
  const sandbox = await startSandbox();
  const bank = await startServer(unknownIds(sandbox.baseUrl));
  const work = runDir('init-unknown-ids');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, REDIRECT_URI: sandbox.redirectUri };
  try {
    const init = await bin(work, env, initArgs({ ...sandbox, baseUrl: bank.baseUrl }, 'unknown-ids-bank'), 90_000);
    expect(init.status, `${init.stdout}${init.stderr}`).toBe(0);
    const profile = loadProfile(join(work, 'profiles', 'unknown-ids-bank.json'));
    expect(profile.features, init.stdout.slice(-2000)).toEqual(
      expect.arrayContaining(['consents', 'accounts', 'payments']),
    );
    // The first run on that draft, as written (one worker: a worker's start costs more than the waits it shares).
    const grep = FIRST_RUN.map((id) => `@${id.replace(/\./g, '\\.')}( |$)`).join('|');
    const run = await bin(
      work,
      { ...env, [ENV.workers]: '1', [ENV.quiet]: '1' },
      ['run', '--', '--grep', grep],
      240_000,
    );
    const output = `${run.stdout}${run.stderr}`.slice(-3000);
    expect(existsSync(join(work, 'reports', 'conformance.json')), output).toBe(true);
    const report = JSON.parse(readFileSync(join(work, 'reports', 'conformance.json'), 'utf8')) as ConformanceReport;
    const verdicts = Object.fromEntries(
      report.requirements.filter((r) => FIRST_RUN.includes(r.id)).map((r) => [r.id, r.verdict]),
    );
    // Judged: passed or failed on what the bank answered, never blocked or left not judged.
    expect(verdicts, output).toEqual(Object.fromEntries(FIRST_RUN.map((id) => [id, 'passed'])));
    console.log(`init: the first run on the unknown-ids bank's draft: ${JSON.stringify(report.totals)}`);
  } finally {
    await bank.close();
    await sandbox.close();
  }
});

/**
 * A bank that takes no authentication (it ignores Authorization and serves no token endpoint):
 * `init --yes` without credentials drafts authentication "none" instead of a placeholder token,
 * and says so in its console, its summary, the notes and .env.
 */
test('init --yes without credentials against a bank that takes no authentication drafts authentication "none" and says so', async () => {
  test.setTimeout(120_000);
  const sandbox = await startSandbox();
  const bank = await startServer(noAuthentication(sandbox.baseUrl, sandbox));
  const work = runDir('init-no-auth');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const env = { PATH: process.env.PATH, HOME: process.env.HOME };
  try {
    const args = ['init', '--yes', `--base-url=${bank.baseUrl}`, '--bicfi=SBXBSESS', '--psu-id=selftest-init-psu'];
    const init = await bin(work, env, [...args, '--name=open-bank'], 90_000);
    const output = `${init.stdout}${init.stderr}`;
    expect(init.status, output).toBe(0);
    expect(init.stdout).toMatch(
      /^init: authentication: none: consents: the call at \/psd2\/consent\/v1\/consents without Authorization answered 403 CONSENT_UNKNOWN/m,
    );
    expect(init.stdout).toContain('init: authentication: none (the bank answered without Authorization)');
    const profile = loadProfile(join(work, 'profiles', 'open-bank.json'));
    expect(profile.authentication).toBe('none');
    expect(profile.features).toEqual(expect.arrayContaining(['consents', 'accounts', 'payments']));
    expect(profile.features, 'the checks of tokens not claimed').not.toContain('authentication');
    const dotEnv = readFileSync(join(work, '.env'), 'utf8');
    expect(dotEnv).toMatch(/^ACCESS_TOKEN=$/m);
    expect(dotEnv).toMatch(/^CLIENT_ID=$/m);
    expect(dotEnv).toContain('# How the TPP authenticates: none');
    expect(readFileSync(join(work, 'profiles', 'open-bank.notes.md'), 'utf8')).toContain(
      '- `authentication`: "none": ',
    );
    // A placeholder token, where no token endpoint answers: "none" too, not the placeholder sent.
    const placeholder = await bin(
      work,
      env,
      [...args, '--name=open-bank', '--force', '--auth=token', '--access-token=placeholder-0000'],
      90_000,
    );
    expect(placeholder.status, `${placeholder.stdout}${placeholder.stderr}`).toBe(0);
    expect(loadProfile(join(work, 'profiles', 'open-bank.json')).authentication).toBe('none');
  } finally {
    await bank.close();
    await sandbox.close();
  }
});
