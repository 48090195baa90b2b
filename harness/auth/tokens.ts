import { randomBytes } from 'node:crypto';
import { scopeTokenKey } from '../config/settings.js';
import { requiredHeaderValues, type Target } from '../config/target.js';
import { registerSecret } from '../evidence/redact.js';
import { block, requireSuccess, TargetBroken } from '../http/broken.js';
import type { ApiClient, HeaderSpec } from '../http/client.js';
import { linkUrl } from '../http/links.js';
import { snippet, type ApiResponse, type Exchange } from '../http/response.js';
import { limitsOf } from '../http/limits.js';
import { exchangeOnWire, transport } from '../http/transport.js';
import { redirectMethod, type ScaDriver } from '../sca/driver.js';
import { psuAgentFor } from '../sca/agents.js';
import { authorizeUrlFor } from '../sca/psu-agent.js';

/** The full scope: an API scope plus the profile's PSU context scope (Authentication 2). */
export function fullScope(target: Target, scope: string): string {
  return scope.includes(' ') ? scope : `${scope} ${target.profile.psuContext}`;
}

/**
 * Application tokens: a scope's own token where the settings give one (ACCESS_TOKEN_<API
 * SCOPE>_<CONTEXT>), else the static ACCESS_TOKEN, else OAuth2 client credentials at the token
 * endpoint, cached per scope for the worker; none for a bank that takes no authentication.
 */
export class TokenCache {
  private readonly cache = new Map<string, { token: string; expiresAt: number }>();

  constructor(private readonly target: Target) {}

  async get(scope: string, record?: (e: Exchange) => void): Promise<string> {
    // A bank that takes no authentication: no token is fetched (and none sent: harness/http/client.ts).
    if (this.target.profile.authentication === 'none') return '';
    const full = fullScope(this.target, scope);
    const own = this.target.scopeTokens?.[full];
    if (own) return own;
    if (this.target.accessToken) return this.target.accessToken;
    const hit = this.cache.get(full);
    if (hit && hit.expiresAt > Date.now() + 5_000) return hit.token;
    const token = await this.fetch(full, record);
    return token;
  }

  private async fetch(scope: string, record?: (e: Exchange) => void): Promise<string> {
    const url = this.target.tokenUrl;
    const form = {
      grant_type: 'client_credentials',
      client_id: this.target.clientId,
      // Mutual TLS only (RFC 8705): no secret, the client certificate authenticates the client.
      ...(this.target.clientSecret ? { client_secret: this.target.clientSecret } : {}),
      scope,
    };
    const started = Date.now();
    const exchange: Exchange = {
      seq: 0,
      method: 'POST',
      url,
      requestHeaders: { ...requiredHeaderValues(this.target), 'Content-Type': 'application/x-www-form-urlencoded' },
      requestBody: new URLSearchParams(form).toString(),
      durationMs: 0,
      startedAt: new Date(started).toISOString(),
    };
    let status = 0;
    let text = '';
    try {
      const res = await exchangeOnWire(
        {
          method: 'POST',
          url,
          headers: exchange.requestHeaders,
          body: exchange.requestBody,
          timeoutMs: this.target.timeouts.requestMs,
          maxBodyBytes: 64 * 1024,
          limits: limitsOf(this.target.profile),
        },
        transport(this.target),
      );
      status = res.status;
      text = res.body.toString('utf8');
      Object.assign(exchange, { status, statusText: res.statusText, responseHeaders: res.headers, responseBody: text });
    } catch (err) {
      exchange.error = (err as Error).message.split('\n')[0];
    }
    exchange.durationMs = Date.now() - started;
    let token: string | undefined;
    let expiresIn = 300;
    try {
      const body = JSON.parse(text) as { access_token?: unknown; expires_in?: unknown };
      if (typeof body.access_token === 'string' && body.access_token) token = body.access_token;
      if (typeof body.expires_in === 'number') expiresIn = body.expires_in;
    } catch {
      /* judged below */
    }
    registerSecret(token);
    record?.(exchange);
    if (!token || status !== 200) {
      throw new TargetBroken(
        `no application token for scope "${scope}" from POST ${new URL(url).pathname}: ${
          exchange.error ?? `HTTP ${status}, body ${snippet(text, 200) || '(empty)'}`
        }`,
      );
    }
    this.cache.set(scope, { token, expiresAt: Date.now() + expiresIn * 1000 });
    return token;
  }
}

/** Which token the suite sends on account reads (profile tokens.accountReads). */
export function accountReadsToken(target: Target): 'application' | 'psu' {
  return target.profile.tokens.accountReads;
}

/** Which token the suite sends on the read, status and cancel of a payment it authorised (profile tokens.paymentReads). */
export function paymentReadsToken(target: Target): 'application' | 'psu' {
  return target.profile.tokens.paymentReads;
}

/** What a redirect authorisation with its code exchange gave: the PSU's token and how the SCA ended. */
export interface PsuToken {
  token: string;
  authorisationId: string;
  /** The token answer (its exchange is in the evidence, redacted). */
  exchanged: ApiResponse;
}

/**
 * The PSU's token of a resource (endpoint sections F and G): an authorisation created and started
 * with mbid in the redirect flow, the PSU agent approving on the bank's page, and the code
 * exchanged at {auth_url}/connect/token with X-<Resource>Id and X-<Resource>AuthorisationId.
 * Used where the profile claims tokens.accountReads or tokens.paymentReads psu; any step that fails stops the test.
 */
export async function psuTokenByRedirect(
  driver: ScaDriver,
  api: ApiClient,
  o: {
    resourceBasePath: string;
    resource: 'Consent' | 'Payment';
    resourceId: string;
    /** The resourceScope, e.g. accountinformation private. */
    scope: string;
    headers?: HeaderSpec;
    /** The requirement that judges the authorisation's POST (default authorisations.create.response). */
    createRoot?: string;
  },
): Promise<PsuToken> {
  const createRoot = o.createRoot ?? 'authorisations.create.response';
  const target = api.target;
  const headers: HeaderSpec = {
    ...o.headers,
    'TPP-Redirect-Preferred': 'true',
    'TPP-Redirect-URI': target.redirectUri,
  };
  const created = await driver.create(o.resourceBasePath, 'authorisations', headers);
  const authorisationId = created.json<{ authorisationId?: string }>().authorisationId;
  requireSuccess(created, createRoot, 'create the redirect authorisation');
  if (!authorisationId)
    block(createRoot, 'create the redirect authorisation', `no authorisationId in ${created.describe()}`);
  const method = redirectMethod(created, createRoot);
  const started = await driver.start(`${o.resourceBasePath}/authorisations/${authorisationId}`, method, headers);
  const scaOAuth = started.json<{ _links?: { scaOAuth?: { href?: string } } }>()._links?.scaOAuth?.href;
  if (started.status < 200 || started.status >= 300 || !scaOAuth)
    block(
      'oauth.sca-oauth.link',
      'start the redirect authorisation',
      `expected a 2xx with _links.scaOAuth; got ${started.describe()}`,
    );
  const state = randomBytes(12).toString('base64url');
  const url = authorizeUrlFor(linkUrl(target, scaOAuth).toString(), {
    state,
    redirectUri: target.redirectUri,
    clientId: target.clientId,
  });
  const approval = await psuAgentFor(api.with({ bicFi: false })).decide(url, 'approve');
  registerSecret(approval.code);
  if (!approval.code)
    block(
      'oauth.authorize.approve',
      "the PSU's approval",
      `no code: ${(approval.submitted ?? approval.page).describe()}`,
    );
  const exchanged = await api.post(target.tokenUrl, {
    noAuth: true,
    headers: {
      [`X-${o.resource}Id`]: o.resourceId,
      [`X-${o.resource}AuthorisationId`]: authorisationId,
    },
    form: {
      grant_type: 'authorization_code',
      code: approval.code,
      redirect_uri: target.redirectUri,
      client_id: target.clientId,
      client_secret: target.clientSecret,
      scope: o.scope,
    },
  });
  const token = exchanged.json<{ access_token?: unknown }>().access_token;
  if (exchanged.status < 200 || exchanged.status >= 300 || typeof token !== 'string' || !token)
    block(
      'oauth.token.exchange',
      "exchange the code for the PSU's token",
      `expected a 2xx with access_token; got ${exchanged.describe()}`,
    );
  registerSecret(token);
  return { token, authorisationId, exchanged };
}

/**
 * The full scopes each check of a token's scope or PSU context sends tokens of: the scope it
 * judges refused and the scope of the valid call beside it. Under ACCESS_TOKEN (one token for
 * every scope) such a check is judged only where each of its scopes has a token of its own.
 */
export const SCOPE_CHECKS: Record<string, (t: Pick<Target, 'profile'>) => string[]> = {
  'accounts.scope.payment-token': (t) => [
    `accountinformation ${t.profile.psuContext}`,
    `paymentinitiation ${t.profile.psuContext}`,
  ],
  'consents.scope.accountinformation': (t) => [
    `accountinformation ${t.profile.psuContext}`,
    `paymentinitiation ${t.profile.psuContext}`,
  ],
  'direct-debit.auth.scope-corporate': (t) => [
    'paymentinitiation corporate',
    'paymentinitiation private',
    `${t.profile.directDebit.consentScope} corporate`,
  ],
  'headers.authorization.scope': (t) => [
    `aspspinformation ${t.profile.psuContext}`,
    `accountinformation ${t.profile.psuContext}`,
  ],
  'headers.psu-corporate-id.context': () => ['accountinformation private', 'accountinformation corporate'],
  'oauth.scope.payments': (t) => [
    `paymentinitiation ${t.profile.psuContext}`,
    `accountinformation ${t.profile.psuContext}`,
  ],
  'oauth.scope.baskets': (t) => [
    `paymentinitiation ${t.profile.psuContext}`,
    `accountinformation ${t.profile.psuContext}`,
  ],
};

/**
 * Of the requirements a test names, those it cannot judge with the target's tokens, and the .env
 * keys that would let it: under ACCESS_TOKEN, a scope check (SCOPE_CHECKS) whose scopes do not
 * each have a token of their own, distinct from the others'. Empty with client credentials.
 */
export function oneTokenUnjudged(
  t: Pick<Target, 'profile' | 'accessToken' | 'scopeTokens'>,
  ids: string[],
): { ids: string[]; keys: string[] } {
  if (!t.accessToken) return { ids: [], keys: [] };
  const out = { ids: [] as string[], keys: [] as string[] };
  for (const id of ids) {
    const scopes = SCOPE_CHECKS[id]?.(t);
    if (!scopes) continue;
    const tokens = scopes.map((s) => t.scopeTokens?.[s]);
    const own = tokens.every(Boolean) && new Set(tokens).size === scopes.length;
    if (own) continue;
    out.ids.push(id);
    out.keys.push(...scopes.filter((s) => !t.scopeTokens?.[s]).map(scopeTokenKey));
  }
  return { ids: out.ids, keys: [...new Set(out.keys)] };
}
