import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { fromRoot } from '../../harness/config/paths.js';
import { tagPattern } from '../../harness/req.js';
import { EUR_DEBTORS, EUR_TEST_ACCOUNTS } from '../../sandbox/variants/test-data.js';
import { runDir } from '../support/run-dir.js';
import { runSuite } from '../support/run-suite.js';
import { startSandbox } from '../support/sandbox.js';
import { startServer } from '../support/servers.js';

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
    features: ['headers', 'consents', 'authorisations', 'accounts', 'sca.decoupled', 'payments'],
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

type Mode = 'sound' | 'refuses-everything' | 'refuses-every-create';

/** The front: the foreign bank's shape over the sandbox, with a fault of its own where asked. */
async function foreignRun(mode: Mode) {
  const sandbox = await startSandbox({ variants: BANK_VARIANTS });
  const seen: string[] = [];
  /** The debtor IBAN of every payment initiation the front passed on. */
  const debtors: unknown[] = [];
  const refuse = (req: IncomingMessage) =>
    !req.headers.date ||
    (mode === 'refuses-everything' && !req.url!.startsWith('/oauth2/')) ||
    (mode === 'refuses-every-create' &&
      req.method === 'POST' &&
      /^\/bank\/v2\/(consents|pis\/[^/]+\/[^/]+)\/?$/.test(req.url!.split('?')[0]));
  const front = await startServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push(`${req.method} ${req.url}`);
    if (refuse(req)) {
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
    req.pipe(up);
  });
  try {
    const run = await runSuite({
      name: `foreign-bank-${mode}`,
      baseUrl: front.baseUrl,
      clientId: sandbox.clientId,
      clientSecret: sandbox.clientSecret,
      grep: tagPattern(SLICE),
      workers: 2,
      env: { TARGET_PROFILE: foreignProfile(), TPP_SIGNING_KEY_FILE: '', TPP_SIGNING_CERT_FILE: '' },
      timeoutMs: 240_000,
    });
    expect(run.report, `no conformance.json; output:\n${run.output.slice(-3000)}`).toBeDefined();
    console.log(
      `foreign bank (${mode}): ${run.report!.requirements.length} judged, ${JSON.stringify(run.report!.totals)}, ${seen.length} requests, ${Math.round(run.durationMs / 1000)} s`,
    );
    return { report: run.report!, output: run.output, seen, debtors };
  } finally {
    await front.close();
    await sandbox.close();
  }
}

test('a bank shaped by another vendor, told by its own profile, is judged conformant with nothing unclaimed called', async () => {
  test.setTimeout(280_000);
  const { report, output, seen, debtors } = await foreignRun('sound');
  const notPassed = report.requirements.filter((r) => r.verdict !== 'passed' && r.verdict !== 'skipped');
  expect(notPassed.map((r) => `${r.id}: ${r.verdict}: ${r.tests[0]?.message.slice(0, 300)}`)).toEqual([]);
  expect(report.verdict, output.slice(-2000)).toBe('conformant');
  expect(report.errors ?? []).toEqual([]);
  // Nothing unclaimed was called: no directory, no basket, no direct debit, no path the profile does not give.
  expect(seen.filter((s) => !PATHS.some(([theirs]) => s.split(' ')[1].startsWith(theirs)))).toEqual([]);
  // The payments were judged, every one from a test account of this bank (the profile's payments.accounts).
  expect(report.requirements.find((r) => r.id === 'payments.sca.accepted')?.verdict).toBe('passed');
  expect(debtors.length).toBeGreaterThan(0);
  expect(debtors.filter((d) => !(EUR_DEBTORS as readonly unknown[]).includes(d))).toEqual([]);
  // The directory filter is not judged without the directory: not claimed, not a TypeError.
  expect(report.requirements.find((r) => r.id === 'headers.parameters.case-sensitive')?.verdict).toBe('skipped');
});

for (const mode of ['refuses-everything', 'refuses-every-create'] as const) {
  test(`the same bank when it ${mode.replace(/-/g, ' ')}: the checks that needed a create are blocked, not failed or passed`, async () => {
    test.setTimeout(280_000);
    const { report } = await foreignRun(mode);
    const verdicts = Object.fromEntries(report.requirements.map((r) => [r.id, r]));
    // The root causes fail: the valid creates are refused.
    const roots = ['consents.create.response', 'payments.initiate.response'];
    for (const root of roots) expect(verdicts[root]?.verdict, root).toBe('failed');
    const judged = report.requirements.filter((r) => !roots.includes(r.id) && r.verdict !== 'skipped');
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
