import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { fromRoot } from '../../harness/config/paths.js';
import { EUR_DEBTORS, EUR_TEST_ACCOUNTS } from '../../sandbox/variants/test-data.js';
import { runDir } from '../support/run-dir.js';
import { startSandbox } from '../support/sandbox.js';
import { runTargets, verdictsOf, type TargetsRun } from '../support/targets-run.js';

/**
 * A bank shaped by another vendor: the reference sandbox behind a front that serves it under
 * other paths (bank/v2/...), its token endpoint at oauth2/token, no directory, no baskets, no
 * direct debit, and that refuses every call without a Date header; behind the front, a sandbox
 * whose test accounts are EUR accounts of its own (variant payments.own-test-accounts-eur: any
 * other debtor or currency is refused) and whose decoupled SCA finalises at once (variant
 * authorisations.finalised-at-once). A profile written for it says so (its payments.accounts
 * among it), and nothing else. The suite, told by that profile, must judge it conformant: no
 * suite error, no cascade reported as failed, nothing called that the profile does not claim.
 */

/** The bank behind the front: its own test accounts, its own pace. */
const BANK_VARIANTS = ['payments.own-test-accounts-eur', 'authorisations.finalised-at-once'];

const PATHS: [string, string][] = [
  ['/bank/v2/consents', '/psd2/consent/v1/consents'],
  ['/bank/v2/accounts', '/psd2/accountinformation/v1/accounts'],
  ['/bank/v2/pis', '/psd2/paymentinitiation/v1'],
  ['/oauth2/token', '/connect/token'],
  ['/oauth2/authorize', '/connect/authorize'],
];
const inward = (url: string) =>
  PATHS.reduce((u, [theirs, ours]) => (u.startsWith(theirs) ? ours + u.slice(theirs.length) : u), url);
/** The sandbox's answers as the foreign bank gives them: its paths, and full links where the sandbox gives short ones. */
const outward = (text: string) =>
  PATHS.reduce((t, [theirs, ours]) => t.split(ours).join(theirs), text)
    .split('"/v1/consents')
    .join('"/bank/v2/consents')
    .split('"/v1/accounts')
    .join('"/bank/v2/accounts')
    .split('"/v1/')
    .join('"/bank/v2/pis/');

/**
 * The slice judged: the common rules (no directory), a consent's create, refusals, read and
 * status; a payment's initiation, read and SCA (its accounts and its pace).
 */
const SLICE = [
  'consents.create.response',
  'payments.initiate.response',
  'payments.read.fields',
  'payments.sca.accepted',
  'consents.create.required-fields',
  'consents.read.fields',
  'consents.status.response',
  'headers.x-request-id.required-code',
  'headers.authorization.required-code',
  'headers.errors.tpp-messages',
  'headers.fields.case-sensitive',
  'headers.parameters.case-sensitive',
  'headers.content-type.json',
  // Not claimed (no direct debit): never asked of this bank.
  'consents.create.direct-debit',
];

/**
 * The signing checks, judged on the sound bank only: a profile without the directory signs a
 * consent's status and create (no List banks to sign), with the suite's test identity.
 */
const SIGNING = [
  'headers.signing.signed-accepted',
  'headers.signing.digest-mismatch',
  'headers.signing.tampered-body',
  'headers.signing.other-key',
];

function foreignProfile(): string {
  const reference = JSON.parse(readFileSync(fromRoot('profiles', 'reference.json'), 'utf8')) as Record<
    string,
    unknown
  > & { sca: Record<string, unknown> };
  const profile: Record<string, unknown> = {
    ...reference,
    name: 'foreign-bank',
    description: 'The reference sandbox shaped as another vendor bank (self-test).',
    features: ['headers', 'consents', 'authorisations', 'accounts', 'sca.decoupled', 'payments', 'signing'],
    paths: { consents: 'bank/v2/consents', accounts: 'bank/v2/accounts', payments: 'bank/v2/pis' },
    oauth: { tokenPath: 'oauth2/token', authorizePath: 'oauth2/authorize' },
    requiredHeaders: [{ name: 'Date', generated: 'date' }],
    sca: { ...reference.sca, approaches: ['DECOUPLED'] },
    // Its own test accounts (EUR only), and fewer products: a bounded run.
    payments: {
      ...(reference.payments as Record<string, unknown>),
      services: ['payments', 'bulk-payments'],
      products: ['sepa-credit-transfers', 'domestic', 'international'],
      accounts: EUR_TEST_ACCOUNTS,
    },
  };
  delete profile.directDebit;
  const dir = runDir('foreign-bank-profile');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'profile.json');
  writeFileSync(file, JSON.stringify(profile, null, 2));
  return file;
}

const MODES = ['sound', 'refuses-everything', 'refuses-every-create'] as const;
type Mode = (typeof MODES)[number];

/**
 * The front: the foreign bank's shape over one sandbox, with a fault of its own where asked. The
 * three banks (sound, refusing everything, refusing every create) are judged in ONE child run
 * (selftest/support/targets-run.ts): the slice declared once per bank, each call routed to its
 * bank by a header; the suite's own token requests name none and reach the sound one.
 */
async function foreignRuns(): Promise<TargetsRun & { debtors: unknown[] }> {
  const sandbox = await startSandbox({ variants: BANK_VARIANTS });
  /** The debtor IBAN of every payment initiation the sound bank passed on. */
  const debtors: unknown[] = [];
  const refuse = (mode: Mode, req: IncomingMessage) =>
    !req.headers.date ||
    (mode === 'refuses-everything' && !req.url!.startsWith('/oauth2/')) ||
    (mode === 'refuses-every-create' &&
      req.method === 'POST' &&
      /^\/bank\/v2\/(consents|pis\/[^/]+\/[^/]+)\/?$/.test(req.url!.split('?')[0]));
  const bank = (mode: Mode) => (req: IncomingMessage, res: ServerResponse) => {
    if (refuse(mode, req)) {
      req.resume();
      res.writeHead(400, {
        'Content-Type': 'application/json',
        'X-Request-ID': String(req.headers['x-request-id'] ?? ''),
      });
      res.end(
        JSON.stringify({ tppMessages: [{ category: 'ERROR', code: 'FORMAT_ERROR', text: 'header Date is missing' }] }),
      );
      return;
    }
    const known = PATHS.some(([theirs]) => req.url!.startsWith(theirs));
    if (!known) {
      res.writeHead(404, { 'Content-Type': 'text/html' });
      res.end('<html><body>Not Found</body></html>');
      return;
    }
    if (
      mode === 'sound' &&
      req.method === 'POST' &&
      /^\/bank\/v2\/pis\/(payments|bulk-payments|periodic-payments)\/[^/]+$/.test(req.url!)
    ) {
      const sent: Buffer[] = [];
      req.on('data', (c: Buffer) => sent.push(c));
      req.on('end', () => {
        try {
          debtors.push(
            (JSON.parse(Buffer.concat(sent).toString('utf8')) as { debtorAccount?: { iban?: unknown } }).debtorAccount
              ?.iban,
          );
        } catch {
          debtors.push(undefined);
        }
      });
    }
    const target = new URL(sandbox.baseUrl);
    const up = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: inward(req.url!),
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          const body = outward(Buffer.concat(chunks).toString('utf8'));
          const headers = { ...answer.headers };
          delete headers['content-length'];
          if (headers.location) headers.location = outward(String(headers.location));
          res.writeHead(answer.statusCode ?? 502, headers);
          res.end(body);
        });
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  };
  try {
    const shared = await runTargets({
      name: 'foreign-bank',
      targets: MODES.map((mode) => ({
        id: mode,
        runs: mode === 'sound' ? [...SLICE, ...SIGNING] : SLICE,
        handler: bank(mode),
      })),
      fallback: bank('sound'),
      files: [],
      clientId: sandbox.clientId,
      clientSecret: sandbox.clientSecret,
      // One for the three banks: a worker's start costs more CPU than the waits it would share.
      workers: 1,
      // The suite's test signing identity (suiteEnv's): the signing checks run without a directory.
      env: { TARGET_PROFILE: foreignProfile() },
      timeoutMs: 240_000,
    });
    for (const mode of MODES) {
      const v = shared.byTarget[mode];
      console.log(
        `foreign bank (${mode}): ${v?.requirements.length ?? 0} judged, ${v?.tests ?? 0} tests in ${v?.seconds ?? 0} s, ${shared.seen.filter((s) => s.startsWith(`${mode} `)).length} requests; shared run ${Math.round(shared.run.durationMs / 1000)} s`,
      );
    }
    return { ...shared, debtors };
  } finally {
    await sandbox.close();
  }
}

test.describe('a foreign bank', () => {
  // In order, in one worker: the run is made once (and read again by a worker restarted after a failure).
  test.describe.configure({ mode: 'default' });
  let shared: TargetsRun & { debtors: unknown[] };
  test.beforeAll(async () => {
    test.setTimeout(280_000);
    shared = await foreignRuns();
  });

  test('a bank shaped by another vendor, told by its own profile, is judged conformant with nothing unclaimed called', () => {
    const { requirements } = verdictsOf(shared, 'sound');
    const notPassed = requirements.filter((r) => r.verdict !== 'passed' && r.verdict !== 'skipped');
    expect(notPassed.map((r) => `${r.id}: ${r.verdict}: ${r.tests[0]?.message.slice(0, 300)}`)).toEqual([]);
    expect(shared.errors, 'errors of the run outside its tests').toEqual([]);
    // Nothing unclaimed was called, by any of the three banks' tests or the suite's own token
    // requests: no directory, no basket, no direct debit, no path the profile does not give.
    expect(shared.seen.length, 'requests the banks served').toBeGreaterThan(10);
    expect(shared.seen.filter((s) => !PATHS.some(([theirs]) => s.split(' ')[2].startsWith(theirs)))).toEqual([]);
    // The payments were judged, every one from a test account of this bank (the profile's payments.accounts).
    expect(requirements.find((r) => r.id === 'payments.sca.accepted')?.verdict).toBe('passed');
    expect(shared.debtors.length).toBeGreaterThan(0);
    expect(shared.debtors.filter((d) => !(EUR_DEBTORS as readonly unknown[]).includes(d))).toEqual([]);
    // Parameter names are case-sensitive: judged on the account reads this bank serves, while the
    // directory's filter, unclaimed here, is not judged (not claimed, not a TypeError).
    const caseSensitive = requirements.find((r) => r.id === 'headers.parameters.case-sensitive');
    expect(caseSensitive?.verdict).toBe('passed');
    expect(
      caseSensitive?.tests.filter((t) => /country|directory/i.test(t.title)).map((t) => t.status),
      'the directory filter check is not claimed here',
    ).not.toContain('passed');
    // The signing checks are judged on the calls the profile claims (no List banks to sign).
    expect(
      SIGNING.map((id) => `${id}: ${requirements.find((r) => r.id === id)?.verdict}`),
      'the signing checks under a profile without the directory',
    ).toEqual(SIGNING.map((id) => `${id}: passed`));
    // A bank that does not claim direct debit is not asked for a direct debit consent.
    expect(requirements.find((r) => r.id === 'consents.create.direct-debit')?.verdict).toBe('skipped');
  });

  for (const mode of ['refuses-everything', 'refuses-every-create'] as const) {
    test(`the same bank when it ${mode.replace(/-/g, ' ')}: the checks that needed a create are blocked, not failed or passed`, () => {
      const { requirements } = verdictsOf(shared, mode);
      const verdicts = Object.fromEntries(requirements.map((r) => [r.id, r]));
      // The root causes fail: the valid creates are refused.
      const roots = ['consents.create.response', 'payments.initiate.response'];
      for (const root of roots) expect(verdicts[root]?.verdict, root).toBe('failed');
      const judged = requirements.filter((r) => !roots.includes(r.id) && r.verdict !== 'skipped');
      expect(
        judged
          .filter((r) => r.verdict !== 'blocked')
          .map((r) => `${r.id}: ${r.verdict}: ${r.tests[0]?.message.slice(0, 200)}`),
        'every other check is blocked',
      ).toEqual([]);
      expect(judged.flatMap((r) => r.blockedBy ?? []).filter((id) => !roots.includes(id))).toEqual([]);
      // The payment checks were among them: blocked by the refused initiation.
      expect(verdicts['payments.sca.accepted']?.blockedBy).toEqual(['payments.initiate.response']);
    });
  }
});
