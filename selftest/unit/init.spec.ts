import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { ownCodesOf, routeAnswers } from '../../scripts/init/areas.js';
import { missingHeaderOf, requiredHeaderOf, type Answer } from '../../scripts/init/bank.js';
import { readOpenApi } from '../../scripts/init/openapi.js';
import { metadataUrls, splitEndpoints } from '../../scripts/init/oauth.js';
import { writeEnv } from '../../scripts/init/write.js';
import { draftAreas, draftOptions } from '../../scripts/init/draft.js';
import { ibanNote, ibanProblem, mod97 } from '../../spec/iso13616.js';
import { readSettings } from '../../harness/config/settings.js';

// The parts of `obg-conformance init` that decide what it drafts, each on its own.

test('a refusal naming a header proposes it: Date generated, an id a fresh UUID, any other from a .env key', () => {
  expect(missingHeaderOf('Date header is required')).toBe('Date');
  expect(missingHeaderOf('header Date is missing')).toBe('Date');
  expect(missingHeaderOf("missing required header 'X-Api-Key'")).toBe('X-Api-Key');
  expect(missingHeaderOf('The header "X-Correlation-ID" is mandatory')).toBe('X-Correlation-ID');
  // A text that names no missing header proposes nothing.
  expect(missingHeaderOf('consent unknown')).toBeUndefined();
  expect(missingHeaderOf('the header is malformed')).toBeUndefined();
  expect(requiredHeaderOf('Date', 'seen')).toMatchObject({ name: 'Date', generated: 'date' });
  expect(requiredHeaderOf('X-Correlation-ID', 'seen')).toMatchObject({ generated: 'uuid' });
  expect(requiredHeaderOf('X-Api-Key', 'seen')).toMatchObject({ fromEnv: 'X_API_KEY' });
});

const answer = (status: number, code?: string, html = false): Answer => ({
  status,
  headers: {},
  text: '',
  html,
  ...(code ? { code } : {}),
});

test("a route answers with a refusal of its own; a 404, an HTML page, a 5xx or another route's code is no route", () => {
  expect(routeAnswers(answer(403, 'CONSENT_UNKNOWN'))).toBe(true);
  expect(routeAnswers(answer(400, 'FORMAT_ERROR'))).toBe(true);
  expect(routeAnswers(answer(401, 'TOKEN_INVALID'))).toBe(true);
  expect(routeAnswers(answer(404, 'RESOURCE_UNKNOWN'))).toBe(false);
  expect(routeAnswers(answer(404, 'CONSENT_UNKNOWN'), ['CONSENT_UNKNOWN'])).toBe(true);
  expect(routeAnswers(answer(200, undefined, true))).toBe(false);
  expect(routeAnswers(answer(502))).toBe(false);
  expect(routeAnswers(answer(0))).toBe(false);
  expect(routeAnswers(answer(404, 'PRODUCT_UNKNOWN'))).toBe(false);
  expect(routeAnswers(answer(403, 'PRODUCT_INVALID'))).toBe(false);
});

test("an unknown id answered 404 RESOURCE_UNKNOWN, as the suite's own checks accept, is a route of consents, payments and baskets", () => {
  for (const area of ['consents', 'payments', 'signingBaskets'] as const) {
    expect(routeAnswers(answer(404, 'RESOURCE_UNKNOWN'), ownCodesOf(area)), area).toBe(true);
    expect(routeAnswers(answer(404, 'PRODUCT_UNKNOWN'), ownCodesOf(area)), area).toBe(false);
    expect(routeAnswers(answer(404), ownCodesOf(area)), `${area}: a 404 without a code`).toBe(false);
  }
});

test('OAuth2 metadata is looked for as RFC 8414 and OpenID say; the endpoints become TARGET_AUTH_URL and two paths', () => {
  expect(metadataUrls('https://bank.example/psd2')).toEqual([
    'https://bank.example/.well-known/oauth-authorization-server/psd2',
    'https://bank.example/psd2/.well-known/oauth-authorization-server',
    'https://bank.example/psd2/.well-known/openid-configuration',
    'https://bank.example/.well-known/oauth-authorization-server',
    'https://bank.example/.well-known/openid-configuration',
  ]);
  const oidc = 'https://id.bank.example/auth/realms/bank/protocol/openid-connect';
  expect(splitEndpoints(`${oidc}/token`, `${oidc}/auth`, 'https://id.bank.example')).toEqual({
    authUrl: oidc,
    tokenPath: 'token',
    authorizePath: 'auth',
    notes: [],
  });
  // An issuer with a path of its own that holds both is the auth URL.
  expect(splitEndpoints(`${oidc}/token`, `${oidc}/auth`, 'https://id.bank.example/auth/realms/bank')).toMatchObject({
    authUrl: 'https://id.bank.example/auth/realms/bank',
    tokenPath: 'protocol/openid-connect/token',
  });
  // Endpoints on two hosts: the token endpoint's, and a note on the other.
  const split = splitEndpoints('https://auth.bank.example/oauth2/token', 'https://login.bank.example/authorize');
  expect(split.authUrl).toBe('https://auth.bank.example/oauth2');
  expect(split.notes[0]).toContain('on another host');
});

test('.env is written mode 600 whether new or rewritten; a key init has no value for keeps its former value, and other keys stay', () => {
  const dir = mkdtempSync(join(tmpdir(), 'obg-init-'));
  const file = join(dir, '.env');
  writeFileSync(file, 'ACCESS_TOKEN=kept-token-value\nCLIENT_ID=old\nBANK_API_KEY=k 1\n', { mode: 0o644 });
  const kept = writeEnv(file, ['# head', ['CLIENT_ID', 'new'], ['ACCESS_TOKEN', ''], ['PSU_ID', '']]);
  expect(statSync(file).mode & 0o777).toBe(0o600);
  const text = readFileSync(file, 'utf8');
  expect(text).toContain('CLIENT_ID=new\n');
  expect(text).toContain('ACCESS_TOKEN=kept-token-value\n');
  expect(text).toContain("BANK_API_KEY='k 1'\n");
  expect(kept).toEqual(['ACCESS_TOKEN', 'BANK_API_KEY']);
  const fresh = join(dir, 'fresh.env');
  writeEnv(fresh, [['CLIENT_ID', 'x']]);
  expect(statSync(fresh).mode & 0o777).toBe(0o600);
});

test('IBANs are judged by ISO 13616 (country, length, mod-97); a national check inside the BBAN is a note', () => {
  // Passes mod-97, fails North Macedonia's national check: valid, with a note.
  expect(mod97('MK59300000000001234')).toBe(1);
  expect(ibanProblem('MK59300000000001234')).toBeUndefined();
  expect(ibanNote('MK59300000000001234')).toContain('national');
  expect(ibanProblem('DE89370400440532013000')).toBeUndefined();
  expect(ibanNote('DE89370400440532013000')).toBeUndefined();
  expect(ibanProblem('DE89370400440532013001')).toContain('check digits');
  expect(ibanProblem('DE8937040044053201300')).toContain('22');
  expect(ibanProblem('XX89370400440532013000')).toContain('registry');
  expect(ibanProblem('de89370400440532013000')).toContain('form');
});

test('mutual TLS only: CLIENT_ID with the TLS client certificate needs no CLIENT_SECRET (RFC 8705); without either, the run stops', () => {
  const base = { TARGET_BASE_URL: 'https://bank.example', BICFI: 'SBXBSESS', CLIENT_ID: 'tpp' };
  const noFile = join(tmpdir(), 'obg-no-such.env');
  expect(() =>
    readSettings({ ...base, TLS_CLIENT_CERT_FILE: '/tpp.pem', TLS_CLIENT_KEY_FILE: '/tpp.key' }, noFile),
  ).not.toThrow();
  expect(() => readSettings(base, noFile)).toThrow(/CLIENT_ID and CLIENT_SECRET.*mutual TLS only/);
});

test("an OpenAPI file names the profile's paths under its first server URL, and the services and products of its enums", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'obg-openapi-'));
  const file = join(dir, 'openapi.yaml');
  writeFileSync(
    file,
    [
      'servers: [{ url: /berlingroup/v1 }]',
      'paths:',
      '  /consents: { post: {} }',
      '  /accounts/{account-id}/balances: { get: {} }',
      '  /accounts: { get: {} }',
      '  /{payment-service}/{payment-product}/{paymentId}:',
      '    get:',
      '      parameters:',
      '        - { name: payment-service, in: path, schema: { enum: [payments, bulk-payments] } }',
      '        - { name: payment-product, in: path, schema: { enum: [sepa-credit-transfers] } }',
    ].join('\n'),
  );
  const found = await readOpenApi(file, 'https://bank.example');
  expect(found.paths).toEqual({
    consents: 'berlingroup/v1/consents',
    accounts: 'berlingroup/v1/accounts',
    payments: 'berlingroup/v1',
  });
  expect(found.services).toEqual(['payments', 'bulk-payments']);
  expect(found.products).toEqual(['sepa-credit-transfers']);
});

test('account information is drafted with consents only: found alone, it is listed not claimed, saying why', () => {
  const tried = ['GET /x → 404'];
  const findings = (consents: boolean) =>
    ({
      areas: {
        areas: {
          directory: { tried },
          consents: consents ? { paths: { consents: 'v1/consents' }, layout: 'berlin', tried } : { tried },
          accounts: { paths: { accounts: 'v1/accounts' }, layout: 'berlin', tried },
          payments: { tried },
          signingBaskets: { tried },
          directDebit: { tried },
        },
        products: [],
        services: [],
      },
    }) as unknown as Parameters<typeof draftAreas>[0];
  const draft = (consents: boolean) => {
    const p = { features: [], paths: {} } as unknown as Parameters<typeof draftAreas>[1];
    const d = { found: [] as string[], notFound: [] as string[], review: [] as string[] };
    draftAreas(findings(consents), p, d);
    return { p, d };
  };
  const alone = draft(false);
  expect(alone.p.features).not.toContain('accounts');
  expect(alone.p.paths.accounts).toBeUndefined();
  expect(alone.d.notFound.join('\n')).toMatch(
    /account information: found at paths.accounts "v1\/accounts", not claimed: its checks read under a consent/,
  );
  const both = draft(true);
  expect(both.p.features).toEqual(expect.arrayContaining(['consents', 'authorisations', 'accounts', 'headers']));
  expect(both.p.paths).toMatchObject({ consents: 'v1/consents', accounts: 'v1/accounts' });
});

test("consents.afterDelete as the probe consent's delete showed it; every other value kept from the sandbox is listed to review", () => {
  const drafted = (afterDelete?: string) => {
    const p = JSON.parse(readFileSync(join(process.cwd(), 'profiles', 'reference.json'), 'utf8')) as Parameters<
      typeof draftOptions
    >[1];
    const d = { found: [] as string[], notFound: [] as string[], review: [] as string[] };
    const f = { answers: {}, required: [], consent: afterDelete ? { afterDelete } : undefined };
    draftOptions(f as unknown as Parameters<typeof draftOptions>[0], p, d);
    return { afterDelete: (p.consents as { afterDelete?: string }).afterDelete, ...d };
  };
  const gone = drafted('403');
  expect(gone.afterDelete).toBe('gone');
  expect(gone.found.join('\n')).toContain('consents.afterDelete: "gone": the probe consent, deleted, then read 403');
  expect(drafted('200, consentStatus terminatedByTpp').afterDelete).toBe('terminatedByTpp');
  const review = drafted().review.join('\n');
  for (const field of ['timeouts.scaMs', 'sca.finaliseWithinMs', 'consents.maxFrequencyPerDay', 'accounts.deltaAccess'])
    expect(review).toContain(`\`${field}\``);
});
