import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Fault } from './fault.js';
import { acceptJsonAtToken, beforeHandler, leaveClientFieldsToClient, rewriteJson, rewriteReply } from '../hooks.js';

const START = /^\/psd2\/consent\/v1\/consents\/:consentId\/authorisations\/:authorisationId$/;
const AUTHORIZE = /^\/connect\/authorize$/;
const TOKEN = /^\/connect\/token$/;

type Body = Record<string, any>;
const form = (req: FastifyRequest) =>
  req.body && typeof req.body === 'object' ? (req.body as Record<string, string | undefined>) : {};
const isCodeGrant = (req: FastifyRequest) => form(req).grant_type === 'authorization_code';

/** The authorisation a token request names by its headers. */
function authOfTokenRequest(app: FastifyInstance, req: FastifyRequest) {
  const id = req.headers['x-consentauthorisationid'];
  return typeof id === 'string' ? app.sandbox.sca.get(id) : undefined;
}

/** Rewrites the scaOAuth href of a redirect start. */
const editScaOAuth = (app: FastifyInstance, edit: (u: URL) => void) =>
  rewriteJson(app, { method: 'PUT', route: START }, (b: Body) => {
    const href = b._links?.scaOAuth?.href;
    if (typeof href !== 'string') return;
    const u = new URL(href);
    edit(u);
    b._links.scaOAuth.href = u.toString();
  });

/** Any start-authorisation operation (consent, payment, cancellation, basket). */
type Params = Record<string, string | undefined>;

/** The authorise request's parameters (query of GET, form of POST). */
const authorizeParams = (req: FastifyRequest): Params =>
  ((req.method === 'GET' ? req.query : req.body) ?? {}) as Params;

/** The authorisation the acr_values of an authorise request names by its <ResourceType>AuthorisationId entry. */
function authorisationOf(app: FastifyInstance, p: Params) {
  const entry = (p.acr_values ?? '').split(/\s+/).find((e) => /^[A-Za-z]+AuthorisationId:/.test(e));
  return entry ? app.sandbox.sca.get(entry.slice(entry.indexOf(':') + 1)) : undefined;
}

/** A lenient authorise page: `fix` mends one parameter of the request before the page checks it. */
const lenientAuthorize = (app: FastifyInstance, fix: (p: Params) => void) =>
  beforeHandler(app, { route: AUTHORIZE }, (req) => fix(authorizeParams(req)));

/** Edits the redirect the authorise page answers after approval (its Location URL). */
function editApprovalRedirect(app: FastifyInstance, edit: (u: URL) => void): void {
  rewriteReply(app, { method: 'POST', route: AUTHORIZE, status: 302 }, (_req, reply) => {
    const loc = reply.getHeader('location');
    if (typeof loc !== 'string') return;
    const u = new URL(loc);
    edit(u);
    reply.header('location', u.toString());
  });
}

const faults: Fault[] = [
  {
    id: 'oauth.token-scope-without-context',
    description:
      "the code exchange answers the token's scope with the API scope alone (accountinformation, paymentinitiation), the PSU context scope left out",
    breaks: ['oauth.token.scope-context'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: TOKEN, status: 200 }, (b: { scope?: string }, req) => {
        if ((req.body as { grant_type?: string } | undefined)?.grant_type !== 'authorization_code') return;
        if (typeof b.scope === 'string')
          b.scope = b.scope
            .split(/\s+/)
            .filter((w) => w !== 'private' && w !== 'corporate')
            .join(' ');
      }),
  },
  {
    id: 'oauth.sca-oauth-without-response-type',
    description: 'the scaOAuth link has no response_type (the authorise page assumes code)',
    breaks: ['oauth.sca-oauth.link'],
    install: (app) => {
      editScaOAuth(app, (u) => u.searchParams.delete('response_type'));
      beforeHandler(app, { route: AUTHORIZE }, (req) => {
        const p = (req.method === 'GET' ? req.query : req.body) as Record<string, string> | undefined;
        if (p && !p.response_type) p.response_type = 'code';
      });
    },
  },
  {
    id: 'oauth.sca-oauth-without-client-fields',
    description: 'the scaOAuth links name no client_id, redirect_uri nor state (the client adds them)',
    breaks: [
      'oauth.sca-oauth.client-fields',
      'oauth.sca-oauth.payment-client-fields',
      'oauth.sca-oauth.basket-client-fields',
    ],
    install: leaveClientFieldsToClient,
  },
  {
    id: 'oauth.acr-lower-case',
    description: 'acr_values writes consentAuthorisationId (the flow guide casing)',
    breaks: ['oauth.sca-oauth.acr-casing'],
    install: (app) =>
      editScaOAuth(app, (u) =>
        u.searchParams.set(
          'acr_values',
          (u.searchParams.get('acr_values') ?? '').replace('ConsentAuthorisationId:', 'consentAuthorisationId:'),
        ),
      ),
  },
  {
    id: 'oauth.approve-redirect-without-scope',
    description: 'the redirect after approval carries no scope',
    breaks: ['oauth.authorize.approve', 'oauth.redirect.payment-flow', 'oauth.redirect.basket-flow'],
    install: (app) => editApprovalRedirect(app, (u) => u.searchParams.delete('scope')),
  },
  {
    id: 'oauth.deny-redirect-without-state',
    description:
      "the redirect after the PSU denies (error=access_denied) drops the TPP's state; the approval's keeps it",
    breaks: ['oauth.authorize.state'],
    install: (app) =>
      editApprovalRedirect(app, (u) => {
        if (u.searchParams.get('error') === 'access_denied') u.searchParams.delete('state');
      }),
  },
  {
    id: 'oauth.state-altered',
    description: 'the redirect after approval carries a state of the bank instead of the TPP state',
    breaks: ['oauth.authorize.state', 'oauth.redirect.payment-flow', 'oauth.redirect.basket-flow'],
    install: (app) =>
      editApprovalRedirect(app, (u) => u.searchParams.set('state', `${u.searchParams.get('state') ?? ''}x`)),
  },
  {
    id: 'oauth.redirect-uri-not-whitelisted',
    description: 'the authorise page accepts any redirect_uri (and whitelists it)',
    breaks: ['oauth.authorize.redirect-whitelist'],
    install: (app) =>
      beforeHandler(app, { route: AUTHORIZE }, (req) => {
        const p = (req.method === 'GET' ? req.query : req.body) as Record<string, string> | undefined;
        const client = p?.client_id ? app.sandbox.clients.get(p.client_id) : undefined;
        if (client && p?.redirect_uri && !client.redirectUris.includes(p.redirect_uri))
          client.redirectUris.push(p.redirect_uri);
      }),
  },
  {
    id: 'oauth.refusal-sent-to-untrusted-uri',
    description:
      'the authorise page refuses a redirect_uri outside the whitelist, but sends its refusal there (a 302 to it with error=invalid_request)',
    breaks: ['oauth.authorize.redirect-whitelist'],
    install: (app) =>
      app.addHook('onSend', async (req, reply, payload) => {
        if (req.method !== 'GET' || !AUTHORIZE.test(req.routeOptions.url ?? '') || reply.statusCode !== 400)
          return payload;
        const p = authorizeParams(req);
        const client = p.client_id ? app.sandbox.clients.get(p.client_id) : undefined;
        if (!client || !p.redirect_uri || client.redirectUris.includes(p.redirect_uri)) return payload;
        let to: URL;
        try {
          to = new URL(p.redirect_uri);
        } catch {
          return payload;
        }
        to.searchParams.set('error', 'invalid_request');
        if (p.state) to.searchParams.set('state', p.state);
        reply.status(302).header('location', to.toString()).type('text/plain');
        return '';
      }),
  },
  {
    id: 'oauth.deny-finalises',
    description: 'a PSU denial finalises the SCA',
    breaks: ['oauth.authorize.deny'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: AUTHORIZE }, (req) => {
        const p = form(req);
        if (p.decision !== 'deny') return;
        const acr = /AuthorisationId:(\S+)/.exec(p.acr_values ?? '');
        const auth = acr ? app.sandbox.sca.get(acr[1]) : undefined;
        if (auth) app.sandbox.sca.end(auth, 'finalised');
      }),
  },
  {
    id: 'oauth.token-expires-in-string',
    description: 'the code exchange answers expires_in as a string',
    breaks: ['oauth.token.exchange', 'oauth.redirect.payment-flow', 'oauth.redirect.basket-flow'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: TOKEN }, (b: Body, req) => {
        if (isCodeGrant(req) && b.expires_in !== undefined) b.expires_in = String(b.expires_in);
      }),
  },
  {
    id: 'oauth.token-type-mac',
    description: 'the code exchange answers token_type mac (a token of another type than Bearer, in any case)',
    breaks: ['oauth.token.exchange', 'oauth.redirect.payment-flow', 'oauth.redirect.basket-flow'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: TOKEN }, (b: Body, req) => {
        if (isCodeGrant(req) && b.token_type !== undefined) b.token_type = 'mac';
      }),
  },
  {
    id: 'oauth.token-without-expires-in',
    description:
      'the code exchange answers no expires_in (RECOMMENDED by RFC 6749, not required: a completeness warning)',
    breaks: ['oauth.token.complete'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: TOKEN }, (b: Body, req) => {
        if (isCodeGrant(req)) delete b.expires_in;
      }),
  },
  {
    id: 'oauth.wrong-secret-accepted',
    description: 'the code exchange does not check client_secret',
    breaks: ['oauth.token.wrong-secret', 'oauth.token.error-body'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: TOKEN }, (req) => {
        const f = form(req);
        const client = f.client_id ? app.sandbox.clients.get(f.client_id) : undefined;
        if (isCodeGrant(req) && client) f.client_secret = client.clientSecret;
      }),
  },
  {
    id: 'oauth.redirect-uri-unchecked',
    description: 'the code exchange does not compare redirect_uri with the authorise request',
    breaks: ['oauth.token.redirect-uri', 'oauth.token.error-body'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: TOKEN }, (req) => {
        const auth = authOfTokenRequest(app, req);
        if (isCodeGrant(req) && auth?.redirect?.redirectUri) form(req).redirect_uri = auth.redirect.redirectUri;
      }),
  },
  {
    id: 'oauth.grant-type-unchecked',
    description:
      'a token request carrying a code is served as authorization_code whatever its grant_type, or without one',
    breaks: ['oauth.token.grant-type'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: TOKEN }, (req) => {
        const f = form(req);
        if (f.code && !app.sandbox.grants.has(f.grant_type ?? '')) f.grant_type = 'authorization_code';
      }),
  },
  {
    id: 'oauth.code-reusable',
    description: 'an authorisation code can be exchanged again',
    breaks: ['oauth.token.single-use', 'oauth.token.error-body'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: TOKEN }, (req) => {
        const auth = authOfTokenRequest(app, req);
        if (isCodeGrant(req) && auth?.redirect) auth.redirect.codeUsed = false;
      }),
  },
  {
    id: 'oauth.token-headers-optional',
    description: 'the code exchange works out a missing X-ConsentId or X-ConsentAuthorisationId from the code',
    breaks: ['oauth.token.headers-required'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: TOKEN }, (req) => {
        if (!isCodeGrant(req)) return;
        const f = form(req);
        const h = req.headers;
        if (typeof h['x-consentauthorisationid'] === 'string' && !h['x-consentid']) {
          const auth = app.sandbox.sca.get(h['x-consentauthorisationid']);
          if (auth) h['x-consentid'] = auth.resource.id;
        } else if (typeof h['x-consentid'] === 'string' && !h['x-consentauthorisationid']) {
          const auth = app.sandbox.sca.of('consent', h['x-consentid']).find((a) => a.redirect?.code === f.code);
          if (auth) h['x-consentauthorisationid'] = auth.authorisationId;
        }
      }),
  },
  {
    id: 'oauth.token-json-accepted',
    description: 'the token endpoint takes a JSON body as if it were a form',
    breaks: ['oauth.token.form-only', 'oauth.token.form-only-code'],
    install: (app) => acceptJsonAtToken(app),
  },
  {
    id: 'oauth.error-body-not-rfc',
    description: 'token endpoint errors answer {message} instead of {error, error_description}',
    breaks: ['oauth.token.error-body'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: TOKEN, status: (s) => s >= 400 }, (b: Body) => ({
        message: b.error_description ?? b.error,
      })),
  },
  {
    id: 'oauth.authorize-any-response-type',
    description: 'the authorise page takes any response_type, or none, for code',
    breaks: ['oauth.authorize.response-type'],
    install: (app) =>
      lenientAuthorize(app, (p) => {
        p.response_type = 'code';
      }),
  },
  {
    id: 'oauth.authorize-any-client-id',
    description: "the authorise page takes any client_id, or none, for the resource's application",
    breaks: ['oauth.authorize.client-id'],
    install: (app) =>
      lenientAuthorize(app, (p) => {
        const auth = authorisationOf(app, p);
        if (auth) p.client_id = auth.resource.clientId;
      }),
  },
  {
    id: 'oauth.authorize-any-scope',
    description: "the authorise page takes any scope, or none, for the resource's",
    breaks: ['oauth.authorize.scope'],
    install: (app) =>
      lenientAuthorize(app, (p) => {
        const auth = authorisationOf(app, p);
        if (auth)
          p.scope = `${auth.resource.type === 'consent' ? 'accountinformation' : 'paymentinitiation'} ${auth.resource.context}`;
      }),
  },
  {
    id: 'oauth.authorize-without-state',
    description: 'the authorise page takes a request without state',
    breaks: ['oauth.authorize.state-required'],
    install: (app) =>
      lenientAuthorize(app, (p) => {
        if (!p.state) p.state = 'bank-state';
      }),
  },
  {
    id: 'oauth.authorize-any-resource-id',
    description:
      'the authorise page takes acr_values with an unknown or no resource id (the authorisation id is enough)',
    breaks: ['oauth.authorize.acr-values'],
    install: (app) =>
      lenientAuthorize(app, (p) => {
        const auth = authorisationOf(app, p);
        if (!auth) return;
        const entries = (p.acr_values ?? '').split(/\s+/).filter(Boolean);
        const idp = entries.find((e) => e.startsWith('idp:')) ?? 'idp:';
        const authEntry = entries.find((e) => /AuthorisationId:/.test(e))!;
        const name = authEntry.slice(0, authEntry.indexOf('AuthorisationId:'));
        const resource = `${name.charAt(0).toLowerCase()}${name.slice(1)}Id:${auth.resource.id}`;
        p.acr_values = [idp, resource, authEntry].join(' ');
      }),
  },
];

export default faults;
