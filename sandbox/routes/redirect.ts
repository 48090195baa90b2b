import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Client } from '../auth/clients.js';
import { issueToken, parseScope } from '../auth/tokens.js';
import { oauthError } from '../errors.js';
import type { Authorisation } from '../sca/engine.js';

/** How long an authorisation code may wait for its exchange. */
const CODE_LIFETIME_MS = 10 * 60_000;

interface AuthorizeParams {
  client_id: string;
  redirect_uri: string;
  response_type: string;
  scope: string;
  state: string;
  acr_values: string;
}

/** The parts of acr_values (`idp:<bicfi> <resource>Id:<id> <ResourceType>AuthorisationId:<id>`); either casing of the first letter. */
function parseAcr(acr: string): { bicFi?: string; resourceId?: string; authorisationId?: string } {
  const out: { bicFi?: string; resourceId?: string; authorisationId?: string } = {};
  for (const entry of acr.split(/\s+/).filter(Boolean)) {
    const m = /^([A-Za-z]+):(.+)$/.exec(entry);
    if (!m) continue;
    if (m[1] === 'idp') out.bicFi = m[2];
    else if (/AuthorisationId$/.test(m[1])) out.authorisationId = m[2];
    else if (/Id$/.test(m[1])) out.resourceId = m[2];
  }
  return out;
}

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}button{font-size:1rem;margin-right:1rem;padding:.5rem 1.5rem}</style>
</head><body>${body}</body></html>`;
}

/** An error page: the authorise request is refused and nothing is redirected (e.g. a redirect URI outside the whitelist). */
function errorPage(reply: FastifyReply, status: number, error: string, description: string) {
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .send(
      page(
        'Authentication refused',
        `<h1>Authentication refused</h1><p id="error" data-error="${esc(error)}">${esc(error)}: ${esc(description)}</p>`,
      ),
    );
}

/** Checks an authorise request; returns the client and the authorisation, or the reason it is refused. */
function checkAuthorize(
  app: FastifyInstance,
  p: Partial<AuthorizeParams>,
): { ok: true; client: Client; auth: Authorisation } | { ok: false; error: string; description: string } {
  const client = p.client_id ? app.sandbox.clients.get(p.client_id) : undefined;
  if (!client) return { ok: false, error: 'invalid_client', description: 'unknown client_id' };
  if (!p.redirect_uri || !client.redirectUris.includes(p.redirect_uri)) {
    return { ok: false, error: 'invalid_request', description: 'redirect_uri is not whitelisted for this application' };
  }
  if (p.response_type !== 'code')
    return { ok: false, error: 'unsupported_response_type', description: 'response_type must be code' };
  if (!p.scope?.trim()) return { ok: false, error: 'invalid_scope', description: 'scope is required' };
  if (!p.state) return { ok: false, error: 'invalid_request', description: 'state is required' };
  const acr = parseAcr(p.acr_values ?? '');
  if (!acr.bicFi || !acr.resourceId || !acr.authorisationId) {
    return {
      ok: false,
      error: 'invalid_request',
      description: 'acr_values must hold idp:<bicfi>, <resource>Id:<id> and <ResourceType>AuthorisationId:<id>',
    };
  }
  const auth = app.sandbox.sca.get(acr.authorisationId);
  if (!auth || auth.resource.id !== acr.resourceId || auth.resource.clientId !== client.clientId) {
    return {
      ok: false,
      error: 'invalid_request',
      description: 'no such authorisation for this resource and application',
    };
  }
  // The scope is the resourceScope (endpoint section F): the resource's API scope plus a context scope.
  const scopes = parseScope(p.scope);
  const api = auth.resource.type === 'consent' ? 'accountinformation' : 'paymentinitiation';
  if (typeof scopes === 'string' || !scopes.includes(api)) {
    return {
      ok: false,
      error: 'invalid_scope',
      description: `scope must be ${api} plus a context scope (private or corporate)`,
    };
  }
  if (auth.approach !== 'REDIRECT' || auth.status !== 'started') {
    return {
      ok: false,
      error: 'invalid_request',
      description: `the authorisation is not waiting for a redirect authentication (${auth.status})`,
    };
  }
  return { ok: true, client, auth };
}

const withQuery = (uri: string, q: Record<string, string>) => {
  const u = new URL(uri);
  for (const [k, v] of Object.entries(q)) u.searchParams.set(k, v);
  return u.toString();
};

/**
 * The bank's authorise page of the redirect flow (endpoint section F, Authentication 3 and 4):
 * GET shows the PSU an approve / deny form; POST approves (302 to the redirect URI with code,
 * scope and the exact state) or denies (the SCA fails).
 */
export function registerAuthorizePage(app: FastifyInstance): void {
  app.get('/connect/authorize', async (req, reply) => {
    const p = req.query as Partial<AuthorizeParams>;
    // RFC 6749 3.1: "Request and response parameters MUST NOT be included more than once."
    const repeated = Object.keys(p).filter((k) => Array.isArray((p as Record<string, unknown>)[k]));
    if (repeated.length) return errorPage(reply, 400, 'invalid_request', `${repeated.join(', ')} sent more than once`);
    const c = checkAuthorize(app, p);
    if (!c.ok) return errorPage(reply, 400, c.error, c.description);
    const hidden = (['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'acr_values'] as const)
      .map((k) => `<input type="hidden" name="${k}" value="${esc(String(p[k] ?? ''))}">`)
      .join('\n');
    const what = `${c.auth.resource.type} ${c.auth.resource.id}`;
    return reply.type('text/html; charset=utf-8').send(
      page(
        'Approve access',
        `<h1>Mobile BankID</h1><p>The application <b>${esc(c.client.clientId)}</b> asks you to authorise ${esc(what)} (scope ${esc(String(p.scope))}).</p>
<form id="consent" method="post" action="/connect/authorize">
${hidden}
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
      ),
    );
  });

  app.post('/connect/authorize', async (req: FastifyRequest, reply) => {
    const p = (req.body ?? {}) as Partial<AuthorizeParams> & { decision?: string };
    const c = checkAuthorize(app, p);
    if (!c.ok) return errorPage(reply, 400, c.error, c.description);
    const state = p.state ?? '';
    if (p.decision !== 'approve') {
      app.sandbox.sca.end(c.auth, 'failed');
      return reply.redirect(
        withQuery(p.redirect_uri!, {
          error: 'access_denied',
          error_description: 'the PSU denied the request',
          ...(state ? { state } : {}),
        }),
        302,
      );
    }
    const code = randomBytes(24).toString('base64url');
    c.auth.redirect = {
      ...c.auth.redirect,
      code,
      codeUsed: false,
      codeIssuedAt: Date.now(),
      redirectUri: p.redirect_uri,
      state,
      scope: p.scope,
    };
    return reply.redirect(withQuery(p.redirect_uri!, { code, scope: p.scope!, ...(state ? { state } : {}) }), 302);
  });
}

/** The authorisation-code grant of the token endpoint (endpoint section G): checks the code and finalises the SCA. */
export function registerAuthorizationCodeGrant(app: FastifyInstance): void {
  app.sandbox.grants.set('authorization_code', async (req, reply, client, form) => {
    // X-<resource>Id and X-<ResourceType>AuthorisationId: header names are case-insensitive, so both casings match.
    const names = Object.keys(req.headers);
    const authHeader = names.find((n) => /^x-[a-z]+authorisationid$/.test(n));
    const resource = authHeader?.slice(2, -'authorisationid'.length);
    const idHeader = resource ? `x-${resource}id` : undefined;
    const authorisationId = authHeader ? String(req.headers[authHeader] ?? '') : '';
    const resourceId = idHeader ? String(req.headers[idHeader] ?? '') : '';
    if (!authorisationId || !resourceId) {
      return reply
        .status(400)
        .send(
          oauthError(
            'invalid_request',
            'headers X-<resource>Id and X-<ResourceType>AuthorisationId are required (e.g. X-ConsentId, X-ConsentAuthorisationId)',
          ),
        );
    }
    if (!form.code) return reply.status(400).send(oauthError('invalid_request', 'code is required'));
    if (!form.redirect_uri) return reply.status(400).send(oauthError('invalid_request', 'redirect_uri is required'));
    const auth = app.sandbox.sca.get(authorisationId);
    const r = auth?.redirect;
    if (
      !auth ||
      auth.resource.id !== resourceId ||
      auth.resource.clientId !== client.clientId ||
      !r?.code ||
      r.code !== form.code
    ) {
      return reply
        .status(400)
        .send(oauthError('invalid_grant', 'the code is not valid for this client and authorisation'));
    }
    if (r.codeUsed) return reply.status(400).send(oauthError('invalid_grant', 'the code has already been used'));
    if (Date.now() - (r.codeIssuedAt ?? 0) > CODE_LIFETIME_MS)
      return reply.status(400).send(oauthError('invalid_grant', 'the code has expired'));
    if (form.redirect_uri !== r.redirectUri)
      return reply
        .status(400)
        .send(oauthError('invalid_grant', 'redirect_uri does not equal the redirect URI of the authorise request'));
    r.codeUsed = true;
    app.sandbox.sca.end(auth, 'finalised');
    const scopes = (r.scope ?? form.scope ?? '').split(/\s+/).filter(Boolean);
    const t = issueToken(app, client.clientId, scopes);
    return reply
      .header('Cache-Control', 'no-store')
      .send({ access_token: t.token, expires_in: t.expiresIn, token_type: 'Bearer', scope: scopes.join(' ') });
  });
}
