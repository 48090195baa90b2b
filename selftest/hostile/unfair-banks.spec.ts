import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import type { RequirementResult } from '../../harness/reporter/verdicts.js';
import { startSandbox } from '../support/sandbox.js';
import { runTargets, verdictsOf, type TargetsRun } from '../support/targets-run.js';
import {
  bank,
  exemptedPayments,
  finalisedAtCreation,
  noAuthentication,
  unknownIds,
  validAtOnce,
} from '../support/unfair-fronts.js';

/**
 * Banks shaped by what a bank written by others showed, each the reference sandbox behind a front
 * that breaks one thing, all judged in ONE child run (selftest/support/targets-run.ts) under the
 * reference profile. Each must get the verdicts a bank would call fair: failed where the rule
 * itself is broken, blocked where the cause is elsewhere (naming it), not judged where there is
 * nothing to judge; never a pass that judged nothing, never a cascade reported as failed.
 *
 * - refuses-signed: refuses every signed call (401 SIGNATURE_INVALID), however well signed;
 * - unexpected-code: refuses everything but its token endpoint with a code the suite does not
 *   expect (418 to a read, 409 to anything else);
 * - account-routes-fail: its consents work, its balances and transactions routes answer 404;
 * - no-sca-method: offers no SCA method (no scaMethods in any answer);
 * - sca-routes-fail: makes every consent valid by an SCA of its own (it drives the authorisation
 *   itself, at once) while its authorisation routes answer 404 to the TPP;
 * - link-missing: its create consent answers no `_links.scaStatus` and accepts every valid create:
 *   the create's own rule fails, and every refusal of create consent is judged beside the creates
 *   it accepted (its control is what was seen, not the control requirement's shape rules);
 * - valid-later: no consent authorisation resource (404), and a consent that reads valid only on
 *   its third read (its own SCA ran at creation): the accounts checks are judged against it;
 * - ignores-bicfi: takes a call without X-BicFi as if it had one: the header's MUST fails on every
 *   operation, no other header rule is blocked by it;
 * - finalised-at-creation: needs no further SCA: an authorisation of a consent or a payment is
 *   finalised when it is created (its SCA ran then), and its creation answer says so: every check
 *   that needs an authorised resource is judged on it;
 * - exempted: needs no SCA for a payment at all: a new payment reads accepted (ACCP) at once, its
 *   own SCA having run as it was created, and it offers no authorisation to start: every check that
 *   needs an authorised payment is judged on it;
 * - unknown-ids: answers an unknown consent or payment 404 RESOURCE_UNKNOWN and a path it does not
 *   serve an HTML 404 (the bank `init` drafts from in selftest/package/init.spec.ts): the checks of
 *   an unknown id take that answer;
 * - no-authentication: takes no authentication (it ignores Authorization entirely and serves no
 *   token endpoint), judged under a profile that says so (authentication "none", the case's
 *   claims): the suite sends no Authorization, the checks of tokens read "not claimed", every
 *   other check is judged.
 */

type Mode =
  | 'refuses-signed'
  | 'unexpected-code'
  | 'account-routes-fail'
  | 'no-sca-method'
  | 'sca-routes-fail'
  | 'link-missing'
  | 'valid-later'
  | 'ignores-bicfi'
  | 'finalised-at-creation'
  | 'exempted'
  | 'unknown-ids'
  | 'no-authentication';

/** What each bank is judged on: the rules its fault meets, and the controls those rules stand beside. */
const SLICES: Record<Mode, string[]> = {
  'refuses-signed': [
    'headers.signing.signed-accepted',
    'headers.digest.with-signature',
    'headers.digest.format',
    'headers.signing.digest-mismatch',
    'headers.signing.tampered-body',
    'headers.signing.other-key',
  ],
  'unexpected-code': [
    'consents.create.response',
    'consents.create.required-fields',
    'consents.create.required-fields-code',
    'consents.limits.frequency-min',
    'accounts.list.shape',
    'accounts.consent.unknown',
    'accounts.consent.unknown-code',
    'directory.aspsps.list-shape',
    'directory.aspsp.detail-shape',
    'directory.aspsp.unknown',
    'directory.aspsp.unknown-code',
  ],
  'account-routes-fail': [
    'accounts.list.shape',
    'accounts.detail.shape',
    'accounts.balances.shape',
    'accounts.transactions.shape',
    'accounts.consent.unknown',
    'accounts.consent.received',
    'accounts.transactions.date-from-required',
    'accounts.balances.type-enum',
    'accounts.amounts.pattern',
    'accounts.balances.complete',
    'accounts.account.id-stable',
  ],
  'no-sca-method': [
    'authorisations.create.response',
    'authorisations.sca-method.complete',
    'authorisations.start.decoupled',
    'authorisations.redirect-preferred.false-consents',
    'headers.x-request-id.required',
  ],
  'sca-routes-fail': ['authorisations.create.response', 'accounts.list.shape', 'accounts.balances.shape'],
  'link-missing': [
    'consents.create.response',
    'consents.create.required-fields',
    'consents.create.field-types',
    'consents.limits.frequency-min',
    'consents.create.account-reference-invalid',
  ],
  'valid-later': ['authorisations.create.response', 'accounts.list.shape', 'accounts.balances.shape'],
  'ignores-bicfi': ['headers.x-bicfi.required', 'headers.x-request-id.required'],
  'finalised-at-creation': [
    'accounts.list.shape',
    'authorisations.status.terminal-stable',
    'payments.sca.accepted',
    'payments.authorisations.final-resource',
  ],
  exempted: [
    'payments.sca.accepted',
    'payments.authorisations.final-resource',
    'payments.cancel.time-limit',
    'signing-baskets.create.authorised-payment',
  ],
  'unknown-ids': ['consents.unknown.code', 'payments.read.unknown', 'consents.create.response', 'accounts.list.shape'],
  'no-authentication': [
    'headers.authorization.required',
    'headers.authorization.required-code',
    'headers.authorization.invalid-token',
    'headers.errors.tpp-messages-unauthorised',
    'consents.scope.accountinformation',
    'oauth.token.exchange',
    'consents.create.response',
    'accounts.list.shape',
    'headers.errors.tpp-message-category',
  ],
};

/** The checks of tokens a bank that takes no authentication does not claim (their feature: authentication). */
const TOKEN_CHECKS = SLICES['no-authentication'].slice(0, 6);

/** Requirements whose own rule each bank breaks: the only ones that may fail (or warn) there. */
const BROKEN: Record<Mode, string[]> = {
  'refuses-signed': ['headers.signing.signed-accepted'],
  'unexpected-code': ['consents.create.response', 'directory.aspsps.list-shape'],
  'account-routes-fail': ['accounts.balances.shape', 'accounts.transactions.shape'],
  'no-sca-method': ['authorisations.create.response'],
  'sca-routes-fail': ['authorisations.create.response'],
  'link-missing': ['consents.create.response'],
  'valid-later': ['authorisations.create.response'],
  'ignores-bicfi': ['headers.x-bicfi.required'],
  'finalised-at-creation': [],
  exempted: [],
  'unknown-ids': [],
  'no-authentication': [],
};

async function unfairRuns(): Promise<TargetsRun> {
  // One sandbox behind every bank, whose decoupled SCA ends at once (a pace the specification allows):
  // the bank that runs its own SCA finds the consent valid as soon as it has started it.
  const sandbox = await startSandbox({ variants: ['authorisations.finalised-at-once'] });
  try {
    const shared = await runTargets({
      name: 'unfair-banks',
      targets: (Object.keys(SLICES) as Mode[]).map((mode) => ({
        id: mode,
        runs: SLICES[mode],
        handler:
          mode === 'sca-routes-fail'
            ? validAtOnce(sandbox.baseUrl)
            : mode === 'valid-later'
              ? validAtOnce(sandbox.baseUrl, 2)
              : mode === 'finalised-at-creation'
                ? finalisedAtCreation(sandbox.baseUrl)
                : mode === 'exempted'
                  ? exemptedPayments(sandbox.baseUrl)
                  : mode === 'unknown-ids'
                    ? unknownIds(sandbox.baseUrl)
                    : mode === 'no-authentication'
                      ? noAuthentication(sandbox.baseUrl, sandbox)
                      : bank(mode, sandbox.baseUrl),
        ...(mode === 'no-authentication' ? { claims: { authentication: 'none' } } : {}),
      })),
      fallback: bank('sound', sandbox.baseUrl),
      files: [],
      clientId: sandbox.clientId,
      clientSecret: sandbox.clientSecret,
      workers: 1,
      timeoutMs: 240_000,
    });
    for (const mode of Object.keys(SLICES)) {
      const v = shared.byTarget[mode];
      console.log(
        `unfair bank (${mode}): ${v?.requirements.length ?? 0} judged, ${v?.tests ?? 0} tests in ${v?.seconds ?? 0} s; shared run ${Math.round(shared.run.durationMs / 1000)} s`,
      );
    }
    return shared;
  } finally {
    await sandbox.close();
  }
}

const line = (r: RequirementResult) =>
  `${r.id}: ${r.verdict}${r.blockedBy ? ` by ${r.blockedBy.join(', ')}` : ''}: ${r.tests[0]?.message.split('\n')[0].slice(0, 200)}`;

test.describe('banks that break one thing', () => {
  test.describe.configure({ mode: 'default' });
  let shared: TargetsRun;
  test.beforeAll(async () => {
    test.setTimeout(280_000);
    shared = await unfairRuns();
  });

  /** The verdicts of one bank, with the fairness every bank is owed checked. */
  const fairly = (mode: Mode) => {
    const { requirements } = verdictsOf(shared, mode);
    const byId = new Map(requirements.map((r) => [r.id, r]));
    // Only the rules the bank breaks fail or warn: every other failure would be a cascade or a false verdict.
    expect(
      requirements
        .filter((r) => (r.verdict === 'failed' || r.verdict === 'warning') && !BROKEN[mode].includes(r.id))
        .map(line),
      `${mode}: nothing fails or warns but the rules it breaks`,
    ).toEqual([]);
    for (const id of BROKEN[mode]) expect(byId.get(id)?.verdict, `${mode}: ${id} fails`).toMatch(/^(failed|warning)$/);
    expect(requirements.filter((r) => r.verdict === 'broken').map(line), `${mode}: nothing broken`).toEqual([]);
    // Every block names a root cause that failed here.
    expect(
      requirements
        .filter((r) => r.verdict === 'blocked')
        .filter((r) => !(r.blockedBy ?? []).length || !r.blockedBy!.every((id) => BROKEN[mode].includes(id)))
        .map(line),
      `${mode}: each block names a rule the bank breaks`,
    ).toEqual([]);
    return byId;
  };

  test('a bank that refuses every signed call: no Digest or signature refusal passes, each is blocked by the signed call refused', () => {
    const byId = fairly('refuses-signed');
    for (const id of SLICES['refuses-signed'].slice(1)) {
      expect(byId.get(id)?.verdict, line(byId.get(id)!)).toBe('blocked');
      expect(byId.get(id)?.blockedBy).toEqual(['headers.signing.signed-accepted']);
    }
  });

  test('a bank that refuses with a code the suite does not expect: no refusal passes and no refusal SHOULD warns (blocked)', () => {
    const byId = fairly('unexpected-code');
    expect([...byId.values()].filter((r) => r.verdict === 'passed').map(line)).toEqual([]);
    for (const id of [
      'consents.create.required-fields-code',
      'accounts.consent.unknown-code',
      'directory.aspsp.unknown-code',
      'directory.aspsp.unknown',
    ])
      expect(byId.get(id)?.verdict, line(byId.get(id)!)).toBe('blocked');
  });

  test('a bank whose consents work while its account routes fail: the accounts checks are judged, the routes fail', () => {
    const byId = fairly('account-routes-fail');
    for (const id of ['accounts.list.shape', 'accounts.detail.shape', 'accounts.consent.unknown'])
      expect(byId.get(id)?.verdict, line(byId.get(id)!)).toBe('passed');
    // A refusal on the failing route proves nothing: blocked by that route's own rule.
    expect(byId.get('accounts.transactions.date-from-required')?.blockedBy).toEqual(['accounts.transactions.shape']);
    // The ids are stable (detail and list judged); the reads whose route fails are named not judged.
    const stable = byId.get('accounts.account.id-stable')!;
    expect(stable.verdict, line(stable)).toBe('passed');
    expect(stable.tests[0]?.notJudged?.join('\n')).toContain('[blocked by accounts.balances.shape]');
    // Nothing passes on a 404's body, and nothing fails by cascade: blocked by the balances route's rule.
    for (const id of ['accounts.balances.type-enum', 'accounts.amounts.pattern', 'accounts.balances.complete'])
      expect([byId.get(id)?.verdict, byId.get(id)?.blockedBy], line(byId.get(id)!)).toEqual([
        'blocked',
        ['accounts.balances.shape'],
      ]);
  });

  test('a bank that offers no SCA method: the method checks are not judged or blocked, never passed on an empty list', () => {
    const byId = fairly('no-sca-method');
    expect(
      byId.get('authorisations.sca-method.complete')?.verdict,
      line(byId.get('authorisations.sca-method.complete')!),
    ).toBe('skipped');
    expect(byId.get('authorisations.sca-method.complete')?.tests[0]?.message).toContain('not judged');
    for (const id of ['authorisations.start.decoupled', 'authorisations.redirect-preferred.false-consents'])
      expect(byId.get(id)?.verdict, line(byId.get(id)!)).toBe('blocked');
    // A rule over operations is judged on every operation that could be prepared; those that need
    // a method offered are named not judged, with their root cause, and block nothing else.
    // The accounts group alone, whose every operation needs an authorised consent, is blocked.
    const header = byId.get('headers.x-request-id.required')!;
    const group = (name: string) => header.tests.find((t) => t.title.startsWith(`${name}:`));
    expect(group('consents')?.status, line(header)).toBe('passed');
    expect(group('consents')?.notJudged?.join('\n')).toMatch(
      /^Authorisation SCA status \(consent\): \[blocked by authorisations\.create\.response\] an SCA method offered/,
    );
    expect([group('accounts')?.status, group('accounts')?.blockedBy]).toEqual([
      'blocked',
      'authorisations.create.response',
    ]);
    for (const name of ['directory', 'payments', 'signing-baskets', 'direct-debit'])
      expect(group(name)?.status, `${name}: ${group(name)?.message.split('\n')[0]}`).toBe('passed');
  });

  test('a bank that makes its consents valid by an SCA of its own while its authorisation routes fail: the accounts checks are judged against the valid consent', () => {
    const byId = fairly('sca-routes-fail');
    for (const id of ['accounts.list.shape', 'accounts.balances.shape'])
      expect(byId.get(id)?.verdict, line(byId.get(id)!)).toBe('passed');
  });

  test('a bank whose create consent lacks one link and accepts every valid create: the refusals are judged beside those creates', () => {
    const byId = fairly('link-missing');
    for (const id of SLICES['link-missing'].slice(1)) expect(byId.get(id)?.verdict, line(byId.get(id)!)).toBe('passed');
  });

  test('a bank whose consent reads valid only on a later read, with no authorisation resource: the accounts checks are judged', () => {
    const byId = fairly('valid-later');
    for (const id of ['accounts.list.shape', 'accounts.balances.shape'])
      expect(byId.get(id)?.verdict, line(byId.get(id)!)).toBe('passed');
  });

  test('a bank that ignores X-BicFi: its MUST fails, the other header rules are judged', () => {
    const byId = fairly('ignores-bicfi');
    expect(byId.get('headers.x-bicfi.required')?.verdict, line(byId.get('headers.x-bicfi.required')!)).toBe('failed');
    expect(byId.get('headers.x-request-id.required')?.verdict, line(byId.get('headers.x-request-id.required')!)).toBe(
      'passed',
    );
  });

  test('a bank that finalises an authorisation when it creates it: the checks that need an authorised resource are judged', () => {
    const byId = fairly('finalised-at-creation');
    for (const id of SLICES['finalised-at-creation']) expect(byId.get(id)?.verdict, line(byId.get(id)!)).toBe('passed');
  });

  test('a bank that needs no SCA for a payment (it reads accepted at once): the checks that need an authorised payment are judged', () => {
    const byId = fairly('exempted');
    for (const id of SLICES.exempted) expect(byId.get(id)?.verdict, line(byId.get(id)!)).toBe('passed');
  });

  test('a bank answering unknown ids 404 RESOURCE_UNKNOWN: the checks of an unknown id take it, the others are judged', () => {
    const byId = fairly('unknown-ids');
    for (const id of SLICES['unknown-ids']) expect(byId.get(id)?.verdict, line(byId.get(id)!)).toBe('passed');
  });

  test('a bank that takes no authentication, under authentication "none": no Authorization sent, the checks of tokens not claimed, the rest judged', () => {
    const byId = fairly('no-authentication');
    for (const id of TOKEN_CHECKS) {
      const r = byId.get(id);
      expect([r?.verdict, r?.tests[0]?.message], id).toEqual([
        'skipped',
        expect.stringMatching(/^not claimed: .*authentication/),
      ]);
    }
    for (const id of SLICES['no-authentication'].filter((x) => !TOKEN_CHECKS.includes(x)))
      expect(byId.get(id)?.verdict, line(byId.get(id)!)).toBe('passed');
    const calls = shared.seen.filter((s) => s.startsWith('no-authentication '));
    expect(calls.length, 'calls the bank served').toBeGreaterThan(3);
    expect(
      calls.filter((s) => s.endsWith(' (Authorization)')),
      'no call carried Authorization',
    ).toEqual([]);
  });
});
