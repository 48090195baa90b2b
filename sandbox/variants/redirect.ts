import { BgError } from '../errors.js';
import { acceptJsonAtToken, beforeHandler, leaveClientFieldsToClient, rewriteJson, rewriteReply } from '../hooks.js';
import { SCA_METHODS } from '../sca/engine.js';
import type { FastifyInstance } from 'fastify';
import type { Variant } from './variant.js';

const TOKEN = /^\/connect\/token$/;
const AUTHORIZE = /^\/connect\/authorize$/;
const CONSENTS = /^\/psd2\/consent\/v1\/consents$/;
const CONSENT_AUTHS = /^\/psd2\/consent\/v1\/consents\/:consentId\/authorisations$/;
const CONSENT_AUTH = /^\/psd2\/consent\/v1\/consents\/:consentId\/authorisations\/:authorisationId$/;

/** Section F states where the PSU comes back and with what; how the bank sends it is the bank's own. */
const RETURN_ALLOWS =
  "The PSU is sent to that URL. After authentication the bank routes the PSU back to the redirect URI with query parameters `code`, `scope`, `state`. (Endpoint section F; Events 3: the bank returns the PSU to the TPP's redirect URI with `code`, `scope` and `state`)";

/** The requirements that judge the PSU's return. */
const RETURN_CONCERNS = [
  'oauth.authorize.approve',
  'oauth.authorize.state',
  'oauth.authorize.deny',
  'oauth.redirect.payment-flow',
  'oauth.redirect.basket-flow',
  'oauth.token.exchange',
];

const jsString = (s: string) => JSON.stringify(s).replace(/</g, '\\u003c');

/** A page that sends the browser to `to` by a script (no Location header, no link to follow). */
function scriptReturnPage(to: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Returning to the application</title></head>
<body><p>Returning you to the application…</p>
<script>window.location.replace(${jsString(to)});</script></body></html>`;
}

type Body = Record<string, unknown>;

/** Freedoms of the redirect flow and the token endpoint (endpoint sections F and G, Access token response). */
/**
 * RFC 6749 4.1.2.1: once the client and its redirect URI are known good, the authorise request's
 * other errors (response_type, scope, state, acr_values) go back to the redirect URI as `error`
 * and `state` instead of an error page. The refusals of a bad client or redirect URI stay pages.
 */
function refuseByRedirect(app: FastifyInstance): void {
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.method !== 'GET' || !AUTHORIZE.test(req.routeOptions.url ?? '') || reply.statusCode !== 400) return payload;
    const q = (req.query ?? {}) as Record<string, string | undefined>;
    const client = q.client_id ? app.sandbox.clients.get(q.client_id) : undefined;
    if (!client || !q.redirect_uri || !client.redirectUris.includes(q.redirect_uri)) return payload;
    const error = /data-error="([^"]*)"/.exec(String(payload))?.[1] ?? 'invalid_request';
    const to = new URL(q.redirect_uri);
    to.searchParams.set('error', error);
    if (q.state) to.searchParams.set('state', q.state);
    reply.status(302).header('location', to.toString()).type('text/plain');
    return '';
  });
}

const variants: Variant[] = [
  {
    id: 'oauth.token-json-also-accepted',
    description: 'the token endpoint takes a code exchange sent as JSON as it takes the form',
    allows:
      'POST `{auth_url}/connect/token`, content type `application/x-www-form-urlencoded`. (endpoint section G: the content type the TPP sends; no sentence says another is refused)',
    concerns: ['oauth.token.form-only', 'oauth.token.form-only-code', 'oauth.token.exchange'],
    warns: ['oauth.token.form-only', 'oauth.token.form-only-code'],
    install: acceptJsonAtToken,
  },
  {
    id: 'redirect.authorise-errors-redirected',
    description:
      "the authorise page sends its refusals of a bad response_type, scope, state or acr_values back to the application's whitelisted redirect URI with error and state (RFC 6749 4.1.2.1), not as an error page",
    allows:
      "The client fills `client_id` with its application's client id, `redirect_uri` with a redirect URI whitelisted for the application, and `state` with a value of its own that identifies the session. (endpoint section F names no form for a refusal; RFC 6749 4.1.2.1 returns it to the redirect URI)",
    concerns: [
      'oauth.authorize.response-type',
      'oauth.authorize.scope',
      'oauth.authorize.state-required',
      'oauth.authorize.acr-values',
      'oauth.authorize.redirect-whitelist',
      'oauth.authorize.client-id',
    ],
    warns: [],
    install: refuseByRedirect,
  },
  {
    id: 'oauth.token-type-lowercase',
    description: 'the token endpoint answers token_type "bearer" (lower case)',
    allows:
      '`access_token` (string), `expires_in` (integer, seconds), `token_type` (`Bearer`), `scope` (string). (Access token response; reference facts > Freedoms: RFC 6749 5.1, token_type "is case insensitive"; servers answer Bearer or bearer)',
    concerns: ['oauth.token.exchange', 'oauth.redirect.payment-flow', 'oauth.redirect.basket-flow'],
    warns: [],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: TOKEN }, (b: Body) => {
        if (typeof b.token_type === 'string') b.token_type = b.token_type.toLowerCase();
      }),
  },
  {
    id: 'redirect.return-307',
    description:
      "the authorise page answers the PSU's decision with a 307 (not 302) to the redirect URI with code, scope and state",
    allows: RETURN_ALLOWS,
    concerns: RETURN_CONCERNS,
    warns: [],
    install: (app) =>
      rewriteReply(app, { method: 'POST', route: AUTHORIZE, status: 302 }, (_req, reply) => void reply.status(307)),
  },
  {
    id: 'redirect.return-script-page',
    description:
      "the authorise page answers the PSU's decision with a 200 page whose script sends the browser to the redirect URI with code, scope and state (no Location header)",
    allows: RETURN_ALLOWS,
    concerns: RETURN_CONCERNS,
    warns: [],
    install: (app) =>
      app.addHook('onSend', async (req, reply, payload) => {
        const loc = reply.getHeader('location');
        if (
          req.method !== 'POST' ||
          !AUTHORIZE.test(req.routeOptions.url ?? '') ||
          reply.statusCode !== 302 ||
          typeof loc !== 'string'
        )
          return payload;
        reply.status(200).removeHeader('location').header('content-type', 'text/html; charset=utf-8');
        return scriptReturnPage(loc);
      }),
  },
  {
    id: 'redirect.sca-oauth-client-fields-absent',
    description:
      'the scaOAuth links leave client_id, redirect_uri and state to the client (absent from the link); the client adds them',
    allows:
      "The client fills `client_id` with its application's client id, `redirect_uri` with a redirect URI whitelisted for the application, and `state` with a value of its own that identifies the session. (Endpoint section F)",
    concerns: [
      'oauth.sca-oauth.link',
      'oauth.sca-oauth.payment-link',
      'oauth.sca-oauth.basket-link',
      'oauth.sca-oauth.client-fields',
      'oauth.sca-oauth.payment-client-fields',
      'oauth.sca-oauth.basket-client-fields',
      'oauth.authorize.approve',
      'oauth.redirect.payment-flow',
      'oauth.redirect.basket-flow',
    ],
    warns: [
      'oauth.sca-oauth.client-fields',
      'oauth.sca-oauth.payment-client-fields',
      'oauth.sca-oauth.basket-client-fields',
    ],
    install: leaveClientFieldsToClient,
  },
  {
    id: 'authorisations.update-psu-data-202',
    description: 'update PSU data on a consent authorisation answers 202 (accepted) instead of 200',
    allows:
      'HTTP status codes of each operation and the complete list of error codes and categories: not shown (Errors 4); Update PSU data: selects a method, sends PSU authentication or authorises (embedded) (endpoint section B)',
    concerns: ['authorisations.update-psu-data.decoupled', 'authorisations.update-psu-data.complete'],
    warns: [],
    install: (app) =>
      rewriteReply(app, { method: 'PUT', route: CONSENT_AUTH, status: 200 }, (req, reply) => {
        const body = req.body as { authenticationMethodId?: unknown } | undefined;
        if (body?.authenticationMethodId === undefined) reply.status(202);
      }),
  },
  {
    id: 'authorisations.created-by-bank',
    description:
      'create consent creates the authorisation (its scaMethods in the create-consent answer) and an explicit create authorisation is refused while that one is still received',
    allows:
      'The bank may create the authorisation automatically after create consent (endpoint section B, Start authorisation); reference facts > Freedoms: a second explicit start may then be refused',
    concerns: [
      'authorisations.create.response',
      'authorisations.create.complete',
      'authorisations.create.response-code',
      'authorisations.create.start-response',
      'authorisations.create.start-response-complete',
      'authorisations.list.contains',
      'authorisations.start.decoupled',
      'authorisations.start.complete',
      'authorisations.update-psu-data.decoupled',
      'authorisations.decoupled.autostart-token',
      'authorisations.decoupled.autostart-token-own',
      'authorisations.status.ends',
      'oauth.sca-oauth.link',
      'oauth.authorize.approve',
      'oauth.token.exchange',
    ],
    warns: [],
    install: (app) => {
      rewriteJson(app, { method: 'POST', route: CONSENTS, status: 201 }, (b: Body) => {
        b.scaMethods = SCA_METHODS;
      });
      beforeHandler(app, { method: 'POST', route: CONSENT_AUTHS }, (req) => {
        const consentId = (req.params as { consentId?: string }).consentId ?? '';
        if (app.sandbox.sca.of('consent', consentId).some((a) => a.status === 'received'))
          throw new BgError(
            409,
            'STATUS_INVALID',
            'the consent already has an authorisation (created with the consent) waiting to be started',
          );
      });
    },
  },
];

export default variants;
