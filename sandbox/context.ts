import type { Client } from './auth/clients.js';
import type { ApiScope, GrantHandler, TokenInfo } from './auth/tokens.js';
import type { Consent } from './consents/store.js';
import type { DirectDebitService } from './direct-debit/service.js';
import type { PaymentService } from './payments/service.js';
import type { RequestSchemas } from './plugins/validation.js';
import type { ScaEngine } from './sca/engine.js';
import type { BoundedMap } from './store.js';

export interface SandboxOptions {
  /** Named faults to switch on (sandbox/faults): each breaks one behaviour, for the self-tests. */
  faults?: string[];
  /** Named variants to switch on (sandbox/variants): behaviours the specification allows, for the self-tests. */
  variants?: string[];
  /** Delay after which a started decoupled SCA finalises on its own (default 2000 ms). */
  scaDelayMs?: number;
  /** The animated QR SCA lasts at least this long, so the token's rotation can be seen (default 3000 ms). */
  qrScaDelayMs?: number;
  /** Registered TPP applications (default: one test client). */
  clients?: Client[];
  /** Largest number of each kind of resource kept in memory before the oldest is evicted. */
  maxResources?: number;
  /** Lifetime of application tokens, in seconds. */
  tokenLifetimeSeconds?: number;
  /** PSU ids whose SCA fails (default: FAILING_PSU_ID). */
  failingPsuIds?: string[];
  /** Fastify's logger (off by default). */
  logger?: boolean;
  /** The test PKI's folder (sandbox/tls/pki.ts; default: one per machine, made on first use). */
  pkiDir?: string;
  /** Serve HTTPS with the test PKI's server certificate; `mtls`: a client certificate of the test CA is required. */
  tls?: { mtls?: boolean };
  /** Application-level signing: `verify` (default) checks signed calls, `required` refuses unsigned ones too. */
  signing?: 'verify' | 'required';
  /** A shared, rate-limited sandbox: 429 with Retry-After beyond this many requests a second (sandbox/plugins/rate-limit.ts). */
  rateLimit?: { perSecond: number };
  /** A slow bank: every answer held this long (sandbox/plugins/latency.ts). */
  latencyMs?: number;
}

// The self-tests take the token type from here (selftest/proof/front.ts).

/** The test PSU whose every SCA fails, so the failure path can be driven (named in the reference profile). */
export const FAILING_PSU_ID = 'psu-sca-fails';

/** What every route module finds on `app.sandbox`. */
export interface SandboxContext {
  options: Required<Pick<SandboxOptions, 'scaDelayMs' | 'maxResources' | 'tokenLifetimeSeconds'>> & SandboxOptions;
  clients: Map<string, Client>;
  tokens: BoundedMap<string, TokenInfo>;
  /** Request validation made in code (the rest is Fastify's, by route schema). */
  schemas: RequestSchemas;
  /** The one SCA engine behind every authorisation sub-resource. */
  sca: ScaEngine;
  /** Consents by consentId (account information and direct debit). */
  consents: BoundedMap<string, Consent>;
  /** Payments and signing baskets, and what moves them when their authorisations end. */
  payments: PaymentService;
  /** SEPA direct debit: payments, validation, pain.008 files (endpoint section H). */
  directDebit: DirectDebitService;
  /** Token endpoint grants by grant_type; areas add theirs (authorization_code joins with the redirect flow). */
  grants: Map<string, GrantHandler>;
}

declare module 'fastify' {
  interface FastifyInstance {
    sandbox: SandboxContext;
  }
  interface FastifyRequest {
    token?: TokenInfo;
  }
  interface FastifyContextConfig {
    /** An API operation: X-Request-ID required and echoed, bearer token checked. */
    api?: boolean;
    /** API scope the bearer token must carry. */
    scope?: ApiScope;
    /** X-BicFi required (every operation except the directory). */
    bicFi?: boolean;
    /** Path parameters as the specification names them, where the route's name differs (errors name these). */
    paramNames?: Record<string, string>;
  }
}
