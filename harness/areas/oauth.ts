import { randomBytes } from 'node:crypto';
import { registerSecret } from '../evidence/redact.js';
import type { HeaderSpec } from '../http/client.js';
import type { ApiResponse } from '../http/response.js';
import { authorizeUrlFor, PsuAgent, type AgentResult } from '../sca/psu-agent.js';
import { AuthorisationsClient, test as authorisationsTest, type Begun } from './authorisations.js';

export { because, expect, req } from '../test.js';
export type { AgentResult } from '../sca/psu-agent.js';

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
  readonly agent: PsuAgent;

  constructor(readonly authorisations: AuthorisationsClient) {
    this.agent = new PsuAgent(authorisations.consents.api.with({ bicFi: false }));
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
    const scaOAuth =
      started.status >= 200 && started.status < 300
        ? (started.body as { _links?: { scaOAuth?: { href?: string } } })?._links?.scaOAuth?.href
        : undefined;
    const authorizeUrl = scaOAuth
      ? authorizeUrlFor(scaOAuth, { state, redirectUri: this.target.redirectUri, clientId: this.target.clientId })
      : undefined;
    return { ...b, started, scaOAuth, authorizeUrl, state };
  }

  /** The PSU approves (or denies) on the bank's page; the code is a secret from here on. */
  async psu(
    start: RedirectStart,
    decision: 'approve' | 'deny' = 'approve',
    url = start.authorizeUrl,
  ): Promise<AgentResult> {
    if (!url) throw new Error(`no scaOAuth link to follow: ${start.started.describe()}`);
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
    const url = `${this.target.authUrl}/connect/token`;
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
      throw new Error(`the PSU's approval gave no code: ${(result.submitted ?? result.page).describe()}`);
    return { start, result };
  }
}

/**
 * Adds `redirect`. The redirect flow needs a PSU: with `sca.psuAgent` 'none' the profile has no
 * way to play one, so its tests are skipped as not claimed.
 */
export const test = authorisationsTest.extend<{ redirect: RedirectFlow }>({
  redirect: async ({ authorisations, target }, use) => {
    authorisationsTest.skip(
      target.profile.sca?.psuAgent === 'none',
      `not claimed: the profile "${target.profileName}" names no PSU agent for the redirect flow (sca.psuAgent none)`,
    );
    await use(new RedirectFlow(authorisations));
  },
});
