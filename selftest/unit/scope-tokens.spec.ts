import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { ENV } from '../../harness/config/env-names.mjs';
import { loadProfile } from '../../harness/config/profile.js';
import { readScopeTokens } from '../../harness/config/settings.js';
import { loadSettings } from '../../harness/config/user-settings.mjs';
import { resolveTarget, secretsOf, type Target } from '../../harness/config/target.js';
import { redactText, registerSecret } from '../../harness/evidence/redact.js';
import { ONE_TOKEN_UNJUDGED } from '../../harness/test.js';
import { oneTokenUnjudged, SCOPE_CHECKS, TokenCache } from '../../harness/auth/tokens.js';

// Per-scope tokens (ACCESS_TOKEN_<API SCOPE>_<CONTEXT>): each sent for its scope; with them, the
// scope and context checks are judged under ACCESS_TOKEN.

const noFile = join(tmpdir(), 'obg-no-such.env');
const reference = loadProfile('reference');

/** A target with no token endpoint to reach: a fetch would fail the test. */
function targetWith(accessToken: string, scopeTokens: Record<string, string>): Target {
  return {
    profile: reference,
    accessToken,
    scopeTokens,
    tokenUrl: 'http://127.0.0.1:9/no-token-endpoint',
    clientId: '',
    clientSecret: '',
    requiredHeaders: [],
    timeouts: { requestMs: 200, scaMs: 200 },
  } as unknown as Target;
}

test('scope tokens are read from the environment and .env by full scope; a key naming no scope stops the run naming it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'obg-scope-tokens-'));
  const envFile = join(dir, '.env');
  writeFileSync(
    envFile,
    'ACCESS_TOKEN_ACCOUNTINFORMATION_CORPORATE=from-file-ais-corp\nACCESS_TOKEN_PAYMENTINITIATION_PRIVATE=file-pis\n',
  );
  const tokens = readScopeTokens(
    loadSettings(
      { ACCESS_TOKEN_PAYMENTINITIATION_PRIVATE: 'env-pis', ACCESS_TOKEN_ASPSPINFORMATION_PRIVATE: ' ' },
      envFile,
    ),
  );
  expect(tokens).toEqual({
    'accountinformation corporate': 'from-file-ais-corp',
    'paymentinitiation private': 'env-pis',
  });
  expect(() => readScopeTokens(loadSettings({ ACCESS_TOKEN_PAYMENTS: 'x' }, noFile))).toThrow(
    /^ACCESS_TOKEN_PAYMENTS: names no scope\. .*ACCESS_TOKEN_PAYMENTINITIATION_CORPORATE/,
  );
});

test("a real target's scope tokens reach the target and its secrets; the embedded sandbox ignores them", () => {
  const dir = mkdtempSync(join(tmpdir(), 'obg-scope-target-'));
  const profile = join(dir, 'bank.json');
  writeFileSync(profile, JSON.stringify({ ...reference, features: reference.features.filter((f) => f !== 'signing') }));
  const env = {
    TARGET_BASE_URL: 'https://bank.example',
    TARGET_PROFILE: profile,
    ACCESS_TOKEN: 'one-token-for-all',
    BICFI: 'SBXBSESS',
    ACCESS_TOKEN_ACCOUNTINFORMATION_PRIVATE: 'ais-private-token',
  };
  const target = resolveTarget(env);
  expect(target.scopeTokens).toEqual({ 'accountinformation private': 'ais-private-token' });
  expect(secretsOf(target)).toContain('ais-private-token');
  registerSecret('ais-private-token');
  expect(redactText('sent ais-private-token on the call')).not.toContain('ais-private-token');
  expect(resolveTarget({ ...env, [ENV.embeddedSandbox]: '1' }).scopeTokens).toEqual({});
});

test("the token cache sends a scope's own token for that scope, ACCESS_TOKEN for the others", async () => {
  const cache = new TokenCache(
    targetWith('one-token', { 'paymentinitiation corporate': 'pis-corp', 'accountinformation private': 'ais-priv' }),
  );
  expect(await cache.get('paymentinitiation corporate')).toBe('pis-corp');
  // The profile's context (private) completes a bare API scope.
  expect(await cache.get('accountinformation')).toBe('ais-priv');
  expect(await cache.get('accountinformation corporate')).toBe('one-token');
  expect(await cache.get('paymentinitiation')).toBe('one-token');
});

test('under ACCESS_TOKEN a scope check is judged only when each of its scopes has a token of its own', () => {
  expect(ONE_TOKEN_UNJUDGED).toEqual(Object.keys(SCOPE_CHECKS));
  // Client credentials: a token per scope from the bank, every check judged.
  expect(oneTokenUnjudged(targetWith('', {}), ONE_TOKEN_UNJUDGED).ids).toEqual([]);
  // ACCESS_TOKEN alone: none judged, each naming the keys that would judge it.
  const alone = oneTokenUnjudged(targetWith('t', {}), ONE_TOKEN_UNJUDGED);
  expect(alone.ids).toEqual(ONE_TOKEN_UNJUDGED);
  expect(alone.keys).toEqual(
    expect.arrayContaining([
      'ACCESS_TOKEN_ACCOUNTINFORMATION_PRIVATE',
      'ACCESS_TOKEN_PAYMENTINITIATION_PRIVATE',
      'ACCESS_TOKEN_PAYMENTINITIATION_CORPORATE',
      'ACCESS_TOKEN_ASPSPINFORMATION_PRIVATE',
      'ACCESS_TOKEN_ACCOUNTINFORMATION_CORPORATE',
    ]),
  );
  // Both scopes of the payment-token check given: judged; the context check still lacks its corporate token.
  const some = targetWith('t', { 'accountinformation private': 'a', 'paymentinitiation private': 'p' });
  expect(oneTokenUnjudged(some, ['accounts.scope.payment-token', 'consents.scope.accountinformation']).ids).toEqual([]);
  expect(oneTokenUnjudged(some, ['headers.psu-corporate-id.context'])).toEqual({
    ids: ['headers.psu-corporate-id.context'],
    keys: ['ACCESS_TOKEN_ACCOUNTINFORMATION_CORPORATE'],
  });
  // The same token given for both scopes is not a token of its own.
  const same = targetWith('t', { 'accountinformation private': 'x', 'paymentinitiation private': 'x' });
  expect(oneTokenUnjudged(same, ['accounts.scope.payment-token']).ids).toEqual(['accounts.scope.payment-token']);
  // Every scope given: every check judged; a requirement that is no scope check is never affected.
  const all = targetWith(
    't',
    Object.fromEntries(
      [...new Set(Object.values(SCOPE_CHECKS).flatMap((f) => f({ profile: reference })))].map((s, i) => [
        s,
        `tok-${i}`,
      ]),
    ),
  );
  expect(oneTokenUnjudged(all, [...ONE_TOKEN_UNJUDGED, 'payments.initiate.response']).ids).toEqual([]);
  expect(oneTokenUnjudged(targetWith('t', {}), ['payments.initiate.response']).ids).toEqual([]);
});
