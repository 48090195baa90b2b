import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { TokenCache } from '../../harness/auth/tokens.js';
import { loadCatalogue } from '../../harness/catalogue/catalogue.js';
import { ConfigError } from '../../harness/config/errors.js';
import { loadProfile, withOptionFeatures, type Profile } from '../../harness/config/profile.js';
import type { Target } from '../../harness/config/target.js';
import { ApiClient } from '../../harness/http/client.js';
import { fromRoot } from '../../harness/config/paths.js';
import { startServer } from '../support/servers.js';
import { answeredWithoutToken } from '../../scripts/init/authentication.js';
import type { Answer } from '../../scripts/init/bank.js';

// A bank that takes no authentication (profile authentication "none"): no token fetched, no
// Authorization sent, and the checks of a token not claimed.

const reference = loadProfile('reference');

/** A profile file in a fresh folder: the reference profile with `over` over it. */
function profileWith(over: Record<string, unknown>): string {
  const file = join(mkdtempSync(join(tmpdir(), 'obg-no-auth-')), 'bank.json');
  const data = JSON.parse(readFileSync(fromRoot('profiles', 'reference.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(file, JSON.stringify({ ...data, ...over }));
  return file;
}

/** A target whose token endpoint nobody serves: a token fetched would fail the test. */
const targetOf = (profile: Profile, baseUrl = 'http://127.0.0.1:9') =>
  ({
    baseUrl,
    authUrl: baseUrl,
    profile,
    accessToken: '',
    scopeTokens: {},
    tokenUrl: 'http://127.0.0.1:9/no-token-endpoint',
    clientId: 'c',
    clientSecret: 's',
    bicFi: 'SBXBSESS',
    requiredHeaders: [],
    timeouts: { requestMs: 2_000, scaMs: 2_000 },
  }) as unknown as Target;

test('the profile claims authentication by default; "none" takes the feature away, in a file and in a case\'s claims', () => {
  expect(reference.authentication).toBe('bearer');
  expect(reference.features).toContain('authentication');
  const none = loadProfile(profileWith({ authentication: 'none' }));
  expect(none.features).not.toContain('authentication');
  // A proof case's claims set the option over a profile that brought the feature: it goes.
  expect(withOptionFeatures({ ...reference, authentication: 'none' }).features).not.toContain('authentication');
  // A profile's own list does not claim an option's feature: the option alone says.
  expect(withOptionFeatures({ ...none, features: [...none.features, 'authentication'] }).features).not.toContain(
    'authentication',
  );
});

test('every check of a token needs the feature authentication: the Authorization header, the token endpoint, the scopes, another TPP', () => {
  const needing = loadCatalogue()
    .all.filter((r) => r.features.includes('authentication'))
    .map((r) => r.id);
  for (const id of [
    'headers.authorization.required',
    'headers.authorization.invalid-token',
    'headers.authorization.scope',
    'oauth.token.exchange',
    'oauth.scope.payments',
    'consents.scope.accountinformation',
    'consents.ownership.other-tpp',
  ])
    expect(needing).toContain(id);
  // The rest of the header rules stay claimed.
  expect(needing).not.toContain('headers.x-request-id.required');
  expect(needing).not.toContain('headers.x-bicfi.required');
});

test('"none" beside a PSU token for reads is a contradiction the profile is refused on', () => {
  const file = profileWith({ authentication: 'none', tokens: { accountReads: 'psu' } });
  expect(() => loadProfile(file)).toThrow(ConfigError);
  expect(() => loadProfile(file)).toThrow(/authentication: "none" .* tokens\.accountReads "psu"/);
});

test('under "none" the token cache fetches nothing and the client sends no Authorization', async () => {
  const none = withOptionFeatures({ ...reference, authentication: 'none' });
  // The token endpoint answers nothing: a fetch would throw.
  expect(await new TokenCache(targetOf(none)).get('accountinformation')).toBe('');
  const seen: (string | undefined)[] = [];
  const server = await startServer((req, res) => {
    seen.push(req.headers.authorization);
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
  try {
    let asked = 0;
    const tokens = async () => {
      asked++;
      return 'a-token';
    };
    const withNone = new ApiClient(targetOf(none, server.baseUrl), () => {}, tokens);
    expect((await withNone.get('x', { scope: 'accountinformation' })).status).toBe(200);
    expect([seen, asked]).toEqual([[undefined], 0]);
    // The same call to a bank with bearer authentication carries the token.
    const bearer = new ApiClient(targetOf(reference, server.baseUrl), () => {}, tokens);
    await bearer.get('x', { scope: 'accountinformation' });
    expect([seen[1], asked]).toEqual(['Bearer a-token', 1]);
  } finally {
    await server.close();
  }
});

test('init takes a call without Authorization as answered by the route, not by an authentication layer', () => {
  const answer = (status: number, code?: string): Answer => ({
    status,
    headers: {},
    text: '',
    html: false,
    ...(code ? { code } : {}),
  });
  // The route's own refusal of an unknown resource: the bank took the call without a token.
  expect(answeredWithoutToken(answer(403, 'CONSENT_UNKNOWN'))).toBe(true);
  expect(answeredWithoutToken(answer(404, 'RESOURCE_UNKNOWN'), ['RESOURCE_UNKNOWN'])).toBe(true);
  expect(answeredWithoutToken(answer(200))).toBe(true);
  // The authentication layer's refusal: the bank takes authentication.
  expect(answeredWithoutToken(answer(401, 'TOKEN_INVALID'))).toBe(false);
  expect(answeredWithoutToken(answer(401))).toBe(false);
  expect(answeredWithoutToken(answer(403, 'CERTIFICATE_MISSING'))).toBe(false);
  expect(answeredWithoutToken(answer(400, 'invalid_request'))).toBe(false);
  // No route at all.
  expect(answeredWithoutToken(answer(404))).toBe(false);
});
