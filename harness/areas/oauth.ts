import { randomBytes } from 'node:crypto';
import { registerSecret } from '../evidence/redact.js';
import type { Target } from '../config/target.js';
import type { ApiClient, HeaderSpec } from '../http/client.js';
import type { ApiResponse } from '../http/response.js';
import { psuAgentFor } from '../sca/agents.js';
import { authoriseAnswer } from '../sca/authorise-answer.js';
import { authorizeUrlFor, type AgentResult, type RedirectAgent } from '../sca/psu-agent.js';
import { redirectMethod } from '../sca/driver.js';
import { dependsOnControl, expect } from '../expect.js';
import { block, prerequisite } from '../http/broken.js';
import { linkUrl } from '../http/links.js';
import { because, boxed, test as base } from '../test.js';
import {
  AuthorisationsClient,
  findBankAuthorisation,
  test as authorisationsTest,
  type Begun,
} from './authorisations.js';
import { BasketsClient, test as basketsTest } from './signing-baskets.js';

export { because, expect, req } from '../test.js';
export type { AgentResult } from '../sca/psu-agent.js';

/** The scaOAuth link of a start-authorisation answer (a 2xx), and the authorise URL the PSU is sent to with the TPP's state. */
function scaOAuthOf(started: ApiResponse, target: Target, state: string): { scaOAuth?: string; authorizeUrl?: string } {
  const scaOAuth =
    started.status >= 200 && started.status < 300
      ? (started.body as { _links?: { scaOAuth?: { href?: string } } })?._links?.scaOAuth?.href
      : undefined;
  const authorizeUrl = scaOAuth
    ? authorizeUrlFor(scaOAuth, { state, redirectUri: target.redirectUri, clientId: target.clientId })
    : undefined;
  return { scaOAuth, authorizeUrl };
}

/**
 * The checks every scaOAuth link of the redirect flow meets, whatever it authorises: a 2xx start
 * with the REDIRECT approach, the link to {auth_url}/connect/authorize with the parameters the
 * bank fills: scope (the resource's), response_type=code and acr_values. The client's own
 * parameters (client_id, redirect_uri, state: "The client fills ...", section F) are not judged
 * here but by expectScaOAuthClientFields, a completeness SHOULD. Returns the link's query and its
 * acr_values entries for the resource's own checks.
 */
export async function expectScaOAuthLink(
  start: { started: ApiResponse; scaOAuth?: string },
  target: Target,
  scope: string,
  scopeIs: string,
): Promise<{ query: URLSearchParams; acr: string[] }> {
  await expect(start.started).toSucceed();
  await expect(start.started).toHaveHeader('aspsp-sca-approach', 'REDIRECT');
  expect(
    start.scaOAuth,
    because(`_links.scaOAuth.href is required in the redirect flow; got ${start.started.describe()}`),
  ).toBeTruthy();
  const u = linkUrl(target, start.scaOAuth!);
  expect(`${u.origin}${u.pathname}`, because('scaOAuth points at {auth_url}/connect/authorize')).toBe(
    target.authorizeUrl,
  );
  const q = u.searchParams;
  for (const name of BANK_FILLS) {
    expect(
      q.get(name),
      because(`scaOAuth href must carry the query parameter ${name}: ${u.pathname}?${[...q.keys()].join('&')}`),
    ).toBeTruthy();
  }
  expect(q.get('response_type'), because('response_type of the authorise URL')).toBe('code');
  expect(words(q.get('scope')), because(scopeIs)).toEqual(words(scope));
  return { query: q, acr: (q.get('acr_values') ?? '').split(' ').filter(Boolean) };
}

/** The query parameters of the scaOAuth link that the bank fills (section F). */
const BANK_FILLS = ['scope', 'response_type', 'acr_values'] as const;

/** The query parameters of the scaOAuth link that the client fills (section F: "The client fills client_id ..."). */
export const CLIENT_FILLS = ['client_id', 'redirect_uri', 'state'] as const;

/**
 * Completeness of a scaOAuth link: the parameters the client fills (client_id, redirect_uri,
 * state) are named in the link, whatever their value (the client overwrites all three).
 */
export function expectScaOAuthClientFields(start: { started: ApiResponse; scaOAuth?: string }, target: Target): void {
  const q = linkUrl(target, start.scaOAuth!).searchParams;
  const missing = CLIENT_FILLS.filter((name) => !q.has(name));
  expect(
    missing,
    because(
      `the scaOAuth link lists client_id, redirect_uri and state among its query parameters (the client fills their values); present: ${[...q.keys()].join(', ')}`,
    ),
  ).toEqual([]);
}

/** How the PSU came back, for a failure message: the page, the form's answer and the return the agent saw. */
export function returnOf(r: AgentResult): string {
  const parts = [`page ${r.page.label}`];
  if (r.submitted) parts.push(`form answer ${r.submitted.label}`);
  parts.push(
    r.location
      ? `returned by ${r.returnedBy ?? 'redirect'} to ${r.location.origin}${r.location.pathname}`
      : 'no return seen',
  );
  return parts.join(', ');
}

/** The space-separated words of a scope or acr_values, sorted (order carries no meaning). */
export const words = (s: string | null | undefined) => (s ?? '').split(/\s+/).filter(Boolean).sort();

/**
 * Judges the scope of a code exchange's answer (Authentication 2: "The token scope combines an API
 * scope with a PSU context scope"): it holds every word of `requested`, the resource's API scope
 * and the PSU context scope. An answer that gives no scope is not judged (its presence is
 * oauth.token.complete's): the test is skipped with that reason.
 */
export function expectTokenScope(res: ApiResponse, requested: string, what: string): void {
  const scope = res.json<{ scope?: unknown }>().scope;
  base.skip(
    scope === undefined,
    `not judged: the code exchange of the ${what} gives no scope (its presence is oauth.token.complete)`,
  );
  const given = new Set(words(typeof scope === 'string' ? scope : ''));
  expect(
    words(requested).filter((w) => !given.has(w)),
    because(
      `words of the ${what}'s scope "${requested}" (API scope and PSU context scope) that the token's scope leaves out; got ${res.describe()}`,
    ),
  ).toEqual([]);
}

/**
 * The words of `requested` (the resource's API scope and the PSU context scope) that the scope of
 * a code exchange's answer leaves out, when it gives one (Authentication 2: "The token scope
 * combines an API scope with a PSU context scope"); empty when it gives none or all of them.
 */
export function scopeWordsMissing(res: ApiResponse, requested: string): string[] {
  const scope = (res.body as { scope?: unknown } | undefined)?.scope;
  if (typeof scope !== 'string') return [];
  const given = new Set(words(scope));
  return words(requested).filter((w) => !given.has(w));
}

export interface RedirectStart extends Begun {
  started: ApiResponse;
  /** _links.scaOAuth.href as the target gave it. */
  scaOAuth?: string;
  /** The authorise URL the TPP sends the PSU to: the link with the TPP's own state and whitelisted redirect URI. */
  authorizeUrl?: string;
  /** The TPP's state for this session. */
  state: string;
}

export interface TokenForm {
  client_id?: string;
  client_secret?: string;
  code?: string;
  redirect_uri?: string;
  scope?: string;
  grant_type?: string;
}

/**
 * The redirect flow (endpoint sections F and G) on a consent: start with mbid, send the PSU
 * agent through the scaOAuth link, exchange the code at {auth_url}/connect/token.
 */
export class RedirectFlow {
  readonly agent: RedirectAgent;
  /** The PSU's browser over HTTP (no Authorization): reads the bank's own answer to an authorise request. */
  readonly browser: ApiClient;

  constructor(readonly authorisations: AuthorisationsClient) {
    this.browser = authorisations.consents.api.with({ bicFi: false });
    this.agent = psuAgentFor(this.browser);
  }

  get target() {
    return this.authorisations.target;
  }

  /** The resourceScope of a consent in the profile's context. */
  get scope(): string {
    return `accountinformation ${this.target.profile.psuContext}`;
  }

  async begin(): Promise<RedirectStart> {
    const state = randomBytes(12).toString('base64url');
    const b = await this.authorisations.begin({
      method: 'mbid',
      headers: { 'TPP-Redirect-Preferred': 'true', 'TPP-Redirect-URI': this.target.redirectUri },
    });
    const started = b.started!;
    return { ...b, started, ...scaOAuthOf(started, this.target, state), state };
  }

  /** The PSU approves (or denies) on the bank's page; the code is a secret from here on. */
  async psu(
    start: RedirectStart,
    decision: 'approve' | 'deny' = 'approve',
    url = start.authorizeUrl,
  ): Promise<AgentResult> {
    if (!url) block('oauth.sca-oauth.link', 'a scaOAuth link to follow', `none in ${start.started.describe()}`);
    const r = await this.agent.decide(url, decision);
    registerSecret(r.code);
    return r;
  }

  /** POST {auth_url}/connect/token with the authorization_code grant and the X-ConsentId / X-ConsentAuthorisationId headers. */
  exchange(
    start: RedirectStart,
    code: string | undefined,
    o: { form?: TokenForm; headers?: HeaderSpec; json?: boolean } = {},
  ): Promise<ApiResponse> {
    const form: Record<string, string> = {};
    const all: TokenForm = {
      client_id: this.target.clientId,
      client_secret: this.target.clientSecret,
      code,
      redirect_uri: this.target.redirectUri,
      scope: this.scope,
      grant_type: 'authorization_code',
      ...o.form,
    };
    for (const [k, v] of Object.entries(all)) if (v !== undefined) form[k] = v;
    const headers: HeaderSpec = {
      'X-ConsentId': start.consentId,
      'X-ConsentAuthorisationId': start.authorisationId,
      ...o.headers,
    };
    const url = this.target.tokenUrl;
    return this.authorisations.consents.api.post(url, {
      noAuth: true,
      headers,
      ...(o.json ? { json: form } : { form }),
    });
  }

  /** begin → approve → a code ready to exchange. */
  async approved(): Promise<{ start: RedirectStart; result: AgentResult }> {
    const start = await this.begin();
    const result = await this.psu(start, 'approve');
    if (!result.code)
      block(
        'oauth.authorize.approve',
        "the PSU's approval",
        `no code: ${(result.submitted ?? result.page).describe()}`,
      );
    return { start, result };
  }
}

/**
 * An authorise request the bank must refuse (endpoint section F), judged on the bank's own answer
 * to it, read without a PSU and without following it (harness/sca/authorise-answer.ts), so that
 * the verdict is the same whatever agent plays the PSU: a refusal at once (an error page, or a
 * redirect carrying `error` to anywhere but `untrusted`) holds; a redirect to `untrusted`, or a
 * code issued, fails. Its positive control is the same request made valid (`valid`), which must
 * reach the bank's page (not refused), on the same fresh resource; a bank that refuses it too
 * proves nothing, and the check is blocked by oauth.authorize.approve, the requirement that judges
 * the valid request. Only when the bank shows its page on the edited request too does the PSU
 * agent play it: the PSU approves, and no code may come back (nor anything to `untrusted`).
 */
export async function expectAuthoriseRefused(
  flow: { browser: ApiClient; agent: RedirectAgent },
  o: { valid: string; edited: string; what: string; untrusted?: string },
): Promise<void> {
  const control = await authoriseAnswer(flow.browser, o.valid);
  if (control.kind === 'refused')
    block(
      'oauth.authorize.approve',
      "the same authorise request, valid, reaches the bank's page",
      `${control.how}: ${control.res.describe()}`,
    );
  const answer = await authoriseAnswer(flow.browser, o.edited, o.untrusted);
  registerSecret(answer.code);
  if (answer.kind !== 'shown') {
    expect(
      answer.kind,
      because(
        `an authorise request with ${o.what} must be refused, nothing redirected to it and no code issued; the bank ${answer.how}`,
      ),
    ).toBe('refused');
    return;
  }
  const r = await flow.agent.decide(o.edited, 'approve');
  registerSecret(r.code);
  const where = `the bank ${answer.how}; page ${r.page.label}${r.submitted ? `, form ${r.submitted.label}` : ''}`;
  if (o.untrusted) {
    const sentTo = [r.page.header('location'), r.submitted?.header('location'), r.location?.toString()];
    expect(
      sentTo.filter((l): l is string => !!l && l.startsWith(o.untrusted!)),
      because(`nothing may be redirected to a URI outside the whitelist; ${where}`),
    ).toEqual([]);
  }
  expect(r.code, because(`an authorise request with ${o.what} must issue no code; ${where}`)).toBeUndefined();
}

/** Names the positive control of the authorise refusals (expectAuthoriseRefused): the valid request, approved. */
export const authoriseRefusalControl = () => dependsOnControl('oauth.authorize.approve');

/**
 * Adds `redirect`. The redirect flow needs a PSU: with `sca.psuAgent` 'none' the profile has no
 * way to play one, so its tests are skipped as not claimed.
 */
export const test = authorisationsTest.extend<{ redirect: RedirectFlow }>({
  redirect: boxed(async ({ authorisations, target }, use) => {
    authorisationsTest.skip(
      target.profile.sca?.psuAgent === 'none',
      `not claimed: the profile "${target.profileName}" names no PSU agent for the redirect flow (sca.psuAgent none)`,
    );
    await use(new RedirectFlow(authorisations));
  }),
});

/** A payment or a signing basket: the resources of the paymentinitiation scope (Resource variables). */
export type PaymentResource = 'payment' | 'basket';

/** The words of the resource variables for a payment resource (resource, ResourceType). */
export const RESOURCE_WORDS: Record<PaymentResource, { resource: string; ResourceType: string }> = {
  payment: { resource: 'payment', ResourceType: 'Payment' },
  basket: { resource: 'basket', ResourceType: 'Basket' },
};

export interface ResourceRedirectStart {
  kind: PaymentResource;
  resourceId: string;
  resourceBasePath: string;
  authorisationId: string;
  /** The authorisation's path: <resourceBasePath>/authorisations/<authorisationId>. */
  href: string;
  created: ApiResponse;
  started: ApiResponse;
  /** _links.scaOAuth.href as the target gave it. */
  scaOAuth?: string;
  /** The authorise URL the TPP sends the PSU to: the link with the TPP's own state and whitelisted redirect URI. */
  authorizeUrl?: string;
  /** The TPP's state for this session. */
  state: string;
}

/**
 * The redirect flow (endpoint sections F and G) on a payment or a signing basket: the resource
 * variables give their base path, the scope paymentinitiation and the words of acr_values and of
 * the token exchange headers (X-PaymentId / X-PaymentAuthorisationId, X-BasketId / X-BasketAuthorisationId).
 */
export class ResourceRedirectFlow {
  readonly agent: RedirectAgent;

  constructor(readonly baskets: BasketsClient) {
    this.agent = psuAgentFor(baskets.api.with({ bicFi: false }));
  }

  get payments() {
    return this.baskets.payments;
  }
  get target() {
    return this.baskets.api.target;
  }

  /** The resourceScope of a payment or a basket in the profile's context. */
  get scope(): string {
    return `paymentinitiation ${this.target.profile.psuContext}`;
  }

  /** The redirect headers of the flow guide, with the PSU's identification. */
  headers(): HeaderSpec {
    return {
      ...this.payments.psuHeaders(),
      'TPP-Redirect-Preferred': 'true',
      'TPP-Redirect-URI': this.target.redirectUri,
    };
  }

  /** A new payment (the profile's first claimed service and product) or a basket of two. */
  async resource(kind: PaymentResource): Promise<{ id: string; basePath: string }> {
    if (kind === 'payment') {
      const c = this.baskets.combination();
      if (!c) throw new Error('the profile claims no payment service and product');
      const p = await this.payments.initiated(c);
      return { id: p.paymentId, basePath: p.basePath };
    }
    const b = await this.baskets.createdBasket();
    return { id: b.basketId, basePath: b.basePath };
  }

  /** Creates an authorisation on the resource (a step: the root is the create operation's own requirement). */
  async authorisation(
    kind: PaymentResource,
    basePath: string,
  ): Promise<{ created: ApiResponse; authorisationId: string }> {
    const sca = kind === 'payment' ? this.payments.sca : this.baskets.sca;
    const created = await sca.create(basePath, 'authorisations', this.headers());
    const root = kind === 'payment' ? 'payments.authorisations.create' : 'signing-baskets.authorisation.start';
    // A bank that created the authorisation itself (on initiate payment) may refuse a second one: take the bank's.
    const own =
      created.status >= 400 && created.status < 500
        ? await findBankAuthorisation(this.baskets.api, basePath, this.headers())
        : undefined;
    if (own) return { created, authorisationId: own };
    const authorisationId = await prerequisite(root, `create an authorisation on the ${kind}`, async () => {
      const id = (created.body as { authorisationId?: unknown } | undefined)?.authorisationId;
      expect(
        created.status >= 200 && created.status < 300 && typeof id === 'string' && id.length > 0,
        `a 2xx with an authorisationId; got ${created.describe()}`,
      ).toBe(true);
      return id as string;
    });
    return { created, authorisationId };
  }

  /** A new resource and an authorisation on it, started with mbid and TPP-Redirect-Preferred true. */
  async begin(kind: PaymentResource): Promise<ResourceRedirectStart> {
    const state = randomBytes(12).toString('base64url');
    const r = await this.resource(kind);
    const { created, authorisationId } = await this.authorisation(kind, r.basePath);
    const href = `${r.basePath}/authorisations/${authorisationId}`;
    const sca = kind === 'payment' ? this.payments.sca : this.baskets.sca;
    // The methods the authorisation's answer offered (a bank that created it itself answered a refusal: its own then).
    const root = kind === 'payment' ? 'payments.authorisations.create' : 'signing-baskets.authorisation.start';
    const method = created.status >= 200 && created.status < 300 ? redirectMethod(created, root) : 'mbid';
    const started = await sca.start(href, method, this.headers());
    const { scaOAuth, authorizeUrl } = scaOAuthOf(started, this.target, state);
    return {
      kind,
      resourceId: r.id,
      resourceBasePath: r.basePath,
      authorisationId,
      href,
      created,
      started,
      scaOAuth,
      authorizeUrl,
      state,
    };
  }

  /** The PSU approves (or denies) on the bank's page; the code is a secret from here on. */
  async psu(start: ResourceRedirectStart, decision: 'approve' | 'deny' = 'approve'): Promise<AgentResult> {
    if (!start.authorizeUrl)
      block('oauth.sca-oauth.link', 'a scaOAuth link to follow', `none in ${start.started.describe()}`);
    const r = await this.agent.decide(start.authorizeUrl, decision);
    registerSecret(r.code);
    return r;
  }

  /**
   * POST {auth_url}/connect/token with the authorization_code grant and the headers
   * X-<resource>Id / X-<ResourceType>AuthorisationId of the start (`ids` names others).
   */
  exchange(
    start: ResourceRedirectStart,
    code: string | undefined,
    ids: { resourceId?: string; authorisationId?: string } = {},
  ): Promise<ApiResponse> {
    const { ResourceType } = RESOURCE_WORDS[start.kind];
    const form: Record<string, string> = {
      client_id: this.target.clientId,
      client_secret: this.target.clientSecret,
      redirect_uri: this.target.redirectUri,
      scope: this.scope,
      grant_type: 'authorization_code',
      ...(code === undefined ? {} : { code }),
    };
    return this.baskets.api.post(this.target.tokenUrl, {
      noAuth: true,
      form,
      headers: {
        [`X-${ResourceType}Id`]: ids.resourceId ?? start.resourceId,
        [`X-${ResourceType}AuthorisationId`]: ids.authorisationId ?? start.authorisationId,
      },
    });
  }
}

/**
 * Adds `resourceRedirect` (and `payments`, `baskets`): the redirect flow on payments and baskets.
 * Skipped as not claimed without a PSU agent (sca.psuAgent none) or a payment to fill them with.
 */
export const resourceTest = basketsTest.extend<{ resourceRedirect: ResourceRedirectFlow }>({
  resourceRedirect: boxed(async ({ baskets, target }, use) => {
    basketsTest.skip(
      target.profile.sca?.psuAgent === 'none',
      `not claimed: the profile "${target.profileName}" names no PSU agent for the redirect flow (sca.psuAgent none)`,
    );
    basketsTest.skip(
      !baskets.combination(),
      'not claimed: the profile claims no payment service and product for a payment or a basket',
    );
    await use(new ResourceRedirectFlow(baskets));
  }),
});
