import type { TLSSocket } from 'node:tls';
import type { FastifyInstance } from 'fastify';
import { BgError } from '../errors.js';

/**
 * Mutual TLS (reference facts: a TPP identifies itself in TLS, its test certificates from the
 * bank's test CA): every call but /health must come over a connection whose client certificate
 * chains to the test CA. The handshake asks for one and lets the call through to be refused here
 * with a tppMessage (401 CERTIFICATE_MISSING or CERTIFICATE_INVALID) rather than a reset.
 */
export function installMutualTls(app: FastifyInstance): void {
  app.addHook('onRequest', async (req) => {
    if (req.url === '/health') return;
    const socket = req.raw.socket as TLSSocket;
    if (socket.authorized) return;
    const cert = socket.getPeerCertificate?.();
    if (!cert || !Object.keys(cert).length)
      throw new BgError(401, 'CERTIFICATE_MISSING', 'a TLS client certificate is required');
    throw new BgError(
      401,
      'CERTIFICATE_INVALID',
      `the TLS client certificate is not accepted: ${socket.authorizationError}`,
    );
  });
}
