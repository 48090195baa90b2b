import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BgError, formatError } from '../errors.js';
import { isGeoLocation, isUuid } from '../../spec/header-forms.js';
import { signingBent } from './signing.js';

export const BIC = /^[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$/;

const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * The common rules of every API operation (route config `api: true`), in this order:
 * X-Request-ID required, a uuid, and echoed; a bearer token with the route's scope;
 * X-BicFi where the operation needs it.
 */
export function installGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    const cfg = req.routeOptions.config;
    if (!cfg?.api) return;
    const requestId = header(req, 'X-Request-ID');
    if (requestId !== undefined) reply.header('X-Request-ID', requestId);
    if (!requestId) throw formatError('header X-Request-ID is required', 'X-Request-ID');
    if (!isUuid(requestId))
      throw formatError(`header X-Request-ID must be a uuid, got "${requestId.slice(0, 60)}"`, 'X-Request-ID');

    const auth = header(req, 'Authorization');
    if (!auth) throw new BgError(401, 'TOKEN_INVALID', 'header Authorization: Bearer <token> is required');
    const m = /^Bearer\s+(\S+)$/i.exec(auth);
    if (!m) throw new BgError(401, 'TOKEN_INVALID', 'Authorization must be "Bearer <token>"');
    const info = app.sandbox.tokens.get(m[1]);
    if (!info) throw new BgError(401, 'TOKEN_UNKNOWN', 'the bearer token is unknown');
    if (info.expiresAt <= Date.now()) throw new BgError(401, 'TOKEN_EXPIRED', 'the bearer token has expired');
    if (cfg.scope && !info.scopes.has(cfg.scope)) {
      throw new BgError(
        401,
        'TOKEN_INVALID',
        `the token's scope "${[...info.scopes].join(' ')}" does not include ${cfg.scope}`,
      );
    }
    req.token = info;

    // Application-level signing (Authentication 6): Digest iff Signature; a certificate with every Signature.
    const signature = header(req, 'Signature');
    const digest = header(req, 'Digest');
    if (signature && !digest && !signingBent(app, 'digest-optional'))
      throw formatError('header Digest is required when Signature is present', 'Digest');
    if (digest && !signature) throw formatError('header Digest is allowed only with Signature', 'Digest');
    if (signature && !header(req, 'TPP-Signature-Certificate')) {
      throw formatError(
        'header TPP-Signature-Certificate is required when Signature is present',
        'TPP-Signature-Certificate',
      );
    }
    if (digest && !/^SHA-256=[A-Za-z0-9+/]{43}=$/.test(digest) && !signingBent(app, 'digest-any-algorithm'))
      throw formatError('header Digest must be SHA-256=<base64 of 32 bytes>', 'Digest');

    if (cfg.bicFi) {
      const bic = header(req, 'X-BicFi');
      if (!bic) throw formatError('header X-BicFi is required', 'X-BicFi');
      if (!BIC.test(bic)) throw formatError(`header X-BicFi must be a BIC, got "${bic.slice(0, 40)}"`, 'X-BicFi');
      checkForwardedPsuHeaders(req);
    }
  });
}

/** Formats of the forwarded PSU headers (Common request headers), on every operation but the directory's. */
function checkForwardedPsuHeaders(req: FastifyRequest): void {
  const method = header(req, 'PSU-Http-Method');
  if (method !== undefined && !['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method))
    throw formatError(
      `header PSU-Http-Method must be one of GET, POST, PUT, PATCH, DELETE, got "${method.slice(0, 20)}"`,
      'PSU-Http-Method',
    );
  const device = header(req, 'PSU-Device-ID');
  if (device !== undefined && !isUuid(device))
    throw formatError(`header PSU-Device-ID must be a uuid, got "${device.slice(0, 60)}"`, 'PSU-Device-ID');
  const geo = header(req, 'PSU-Geo-Location');
  if (geo !== undefined && !isGeoLocation(geo))
    throw formatError(
      `header PSU-Geo-Location must be GEO:<lat>;<lon> with six decimals, got "${geo.slice(0, 60)}"`,
      'PSU-Geo-Location',
    );
}

export { header as requestHeader };
