import type { FastifyInstance } from 'fastify';
import { authenticateClient } from '../auth/clients.js';
import { issueToken, parseScope } from '../auth/tokens.js';
import { oauthError } from '../errors.js';
import { registerAuthorizationCodeGrant, registerAuthorizePage } from './redirect.js';

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
    // RFC 6749 3.2: "Request and response parameters MUST NOT be included more than once."
    const repeated = Object.keys(form).filter((k) => Array.isArray(form[k]));
    if (repeated.length)
      return reply.status(400).send(oauthError('invalid_request', `${repeated.join(', ')} sent more than once`));
    const client = authenticateClient(app, form.client_id, form.client_secret);
    if (!client) return reply.status(401).send(oauthError('invalid_client', 'unknown client or wrong secret'));
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
  registerAuthorizationCodeGrant(app);
}
