import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { TokenInfo } from '../context.js';
import { registerAuthorizationCodeGrant, registerAuthorizePage } from '../sca/redirect.js';

const API_SCOPES = new Set(['aspspinformation', 'accountinformation', 'paymentinitiation']);
const CONTEXT_SCOPES = new Set(['private', 'corporate']);

const oauthError = (error: string, description: string) => ({ error, error_description: description });

/** Issues an application token for `scope` (an API scope plus a PSU context scope). */
export function issueToken(
  app: FastifyInstance,
  clientId: string,
  scopes: string[],
): TokenInfo & { expiresIn: number } {
  const expiresIn = app.sandbox.options.tokenLifetimeSeconds;
  const info: TokenInfo = {
    token: randomBytes(24).toString('base64url'),
    clientId,
    scopes: new Set(scopes),
    expiresAt: Date.now() + expiresIn * 1000,
  };
  app.sandbox.tokens.set(info.token, info);
  return { ...info, expiresIn };
}

/** Checks a scope string: exactly one API scope and one context scope. Returns an error text or the parts. */
export function parseScope(scope: string | undefined): string[] | string {
  const parts = (scope ?? '').split(/\s+/).filter(Boolean);
  const apis = parts.filter((p) => API_SCOPES.has(p));
  const contexts = parts.filter((p) => CONTEXT_SCOPES.has(p));
  const unknown = parts.filter((p) => !API_SCOPES.has(p) && !CONTEXT_SCOPES.has(p));
  if (unknown.length) return `unknown scope ${unknown.join(' ')}`;
  if (apis.length !== 1 || contexts.length !== 1)
    return 'scope must combine one API scope with one context scope (private or corporate)';
  return parts;
}

/** The authorisation server: POST /connect/token (client credentials, authorisation code) and the authorise page of the redirect flow. */
export default async function oauthRoutes(app: FastifyInstance): Promise<void> {
  app.post('/connect/token', async (req, reply) => {
    const ct = String(req.headers['content-type'] ?? '');
    if (!ct.startsWith('application/x-www-form-urlencoded')) {
      return reply
        .status(400)
        .send(oauthError('invalid_request', 'the token request must be application/x-www-form-urlencoded'));
    }
    const form = (req.body ?? {}) as Record<string, string | undefined>;
    const client = form.client_id ? app.sandbox.clients.get(form.client_id) : undefined;
    if (!client || client.clientSecret !== form.client_secret) {
      return reply.status(401).send(oauthError('invalid_client', 'unknown client or wrong secret'));
    }
    const grant = app.sandbox.grants.get(form.grant_type ?? '');
    if (!grant)
      return reply
        .status(400)
        .send(
          oauthError(
            'unsupported_grant_type',
            `grant_type must be one of ${[...app.sandbox.grants.keys()].join(', ')}`,
          ),
        );
    return grant(req, reply, client, form);
  });

  app.sandbox.grants.set('client_credentials', async (_req, reply, client, form) => {
    const scopes = parseScope(form.scope);
    if (typeof scopes === 'string') return reply.status(400).send(oauthError('invalid_scope', scopes));
    const t = issueToken(app, client.clientId, scopes);
    return reply
      .header('Cache-Control', 'no-store')
      .send({ access_token: t.token, expires_in: t.expiresIn, token_type: 'Bearer', scope: scopes.join(' ') });
  });

  registerAuthorizePage(app);
  registerAuthorizationCodeGrant(app, (clientId, scopes) => issueToken(app, clientId, scopes));
}
