import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Consent } from './consents/store.js';
import type { DirectDebitService } from './direct-debit/service.js';
import type { PaymentService } from './payments/service.js';
import type { ScaEngine } from './sca/engine.js';
import type { SandboxSchemas } from './schemas.js';
import type { BoundedMap } from './store.js';

export type ApiScope = 'aspspinformation' | 'accountinformation' | 'paymentinitiation';
export type ContextScope = 'private' | 'corporate';

export interface Client {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

export interface TokenInfo {
  token: string;
  clientId: string;
  scopes: Set<string>;
  expiresAt: number;
}

export type GrantHandler = (
  req: FastifyRequest,
  reply: FastifyReply,
  client: Client,
  form: Record<string, string | undefined>,
) => Promise<unknown>;

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
}

/** The test PSU whose every SCA fails, so the failure path can be driven (named in the reference profile). */
export const FAILING_PSU_ID = 'psu-sca-fails';

export const DEFAULT_CLIENT: Client = {
  clientId: 'sandbox-tpp',
  clientSecret: 'sandbox-tpp-secret',
  redirectUris: ['https://tpp.example/callback'],
};

/** What every route module finds on `app.sandbox`. */
export interface SandboxContext {
  options: Required<Pick<SandboxOptions, 'scaDelayMs' | 'maxResources' | 'tokenLifetimeSeconds'>> & SandboxOptions;
  clients: Map<string, Client>;
  tokens: BoundedMap<string, TokenInfo>;
  schemas: SandboxSchemas;
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
  /** The faults switched on (the clean code never reads this; faults install their own hooks). */
  faults: ReadonlySet<string>;
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
  }
}
