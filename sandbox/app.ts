import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { clientRegistry, DEFAULT_CLIENT, secondApplicationOf } from './auth/clients.js';
import type { TokenInfo } from './auth/tokens.js';
import type { Consent } from './consents/store.js';
import { FAILING_PSU_ID, type SandboxOptions } from './context.js';
import { DirectDebitService } from './direct-debit/service.js';
import { installFaults } from './faults/index.js';
import { installVariants } from './variants/index.js';
import { installErrorHandling, routerError } from './plugins/errors.js';
import { installGuard } from './plugins/guard.js';
import { installLatency } from './plugins/latency.js';
import { installRateLimit } from './plugins/rate-limit.js';
import { installSigning } from './plugins/signing.js';
import { installMutualTls } from './tls/server.js';
import { ensurePki } from './tls/pki.js';
import { installValidation, RequestSchemas } from './plugins/validation.js';
import { PaymentService } from './payments/service.js';
import { ROUTES } from './routes/index.js';
import { ScaEngine } from './sca/engine.js';
import { BoundedMap } from './store.js';

/**
 * Builds the reference sandbox (no listen): a complete mock bank behind the Open Banking
 * Gateway API, with its authorisation server. `faults` and `variants`
 * switch on named faults (must fail) and variants (must stay conformant) for the self-tests.
 */
export async function build(options: SandboxOptions = {}): Promise<FastifyInstance> {
  const pki = await ensurePki(options.pkiDir);
  const app = Fastify({
    ...(options.tls
      ? {
          https: {
            key: pki.serverKey,
            cert: pki.serverCert,
            ca: pki.caPem,
            requestCert: !!options.tls.mtls,
            rejectUnauthorized: false,
          },
        }
      : {}),
    logger: options.logger ?? false,
    bodyLimit: 1024 * 1024,
    requestTimeout: 30_000,
    // The router's own refusals (a path id over its length, a malformed URL) as Berlin Group answers too.
    frameworkErrors: routerError,
  });
  const opts = {
    ...options,
    scaDelayMs: options.scaDelayMs ?? 2000,
    maxResources: options.maxResources ?? 10_000,
    tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? 3600,
  };
  const given = options.clients?.length ? options.clients : [DEFAULT_CLIENT];
  // Always at least two applications: a lone one gets its second (ownership checks).
  const clients = given.length === 1 ? [given[0], secondApplicationOf(given[0])] : given;
  app.decorate('sandbox', {
    options: opts,
    clients: clientRegistry(clients),
    tokens: new BoundedMap<string, TokenInfo>(opts.maxResources),
    schemas: new RequestSchemas(),
    sca: new ScaEngine({
      delayMs: opts.scaDelayMs,
      qrDelayMs: options.qrScaDelayMs ?? 3000,
      failingPsuIds: new Set(options.failingPsuIds ?? [FAILING_PSU_ID]),
      max: opts.maxResources,
    }),
    consents: new BoundedMap<string, Consent>(opts.maxResources),
    payments: new PaymentService(opts.maxResources, () => app.sandbox.sca),
    directDebit: new DirectDebitService(opts.maxResources),
    grants: new Map(),
  });
  app.decorateRequest('token', undefined);

  await app.register(formbody);
  // A rate-limited or slow bank (SANDBOX_RATE_LIMIT, SANDBOX_LATENCY_MS): before anything else.
  if (options.rateLimit) installRateLimit(app, options.rateLimit);
  if (options.latencyMs) installLatency(app, options.latencyMs);
  installErrorHandling(app);
  installValidation(app);
  // Faults first: their hooks run before the clean ones they bend.
  installFaults(app, options.faults ?? []);
  installVariants(app, options.variants ?? []);
  installGuard(app);
  if (options.tls?.mtls) installMutualTls(app);
  installSigning(app, pki, options.signing ?? 'verify');

  app.get('/health', async () => ({ status: 'UP' }));
  for (const routes of ROUTES) await routes(app);
  app.addHook('onClose', async () => app.sandbox.sca.close());
  return app;
}
