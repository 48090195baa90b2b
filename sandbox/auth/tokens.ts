import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Client } from './clients.js';

/** The API scopes (Authentication 2): each operation needs its own. */
export type ApiScope = 'aspspinformation' | 'accountinformation' | 'paymentinitiation';

const API_SCOPES: ReadonlySet<string> = new Set(['aspspinformation', 'accountinformation', 'paymentinitiation']);
const CONTEXT_SCOPES: ReadonlySet<string> = new Set(['private', 'corporate']);

/** An application token and what it may do. */
export interface TokenInfo {
  token: string;
  clientId: string;
  scopes: Set<string>;
  expiresAt: number;
}

/** A grant of the token endpoint: checks the grant request of an authenticated client and answers it. */
export type GrantHandler = (
  req: FastifyRequest,
  reply: FastifyReply,
  client: Client,
  form: Record<string, string | undefined>,
) => Promise<unknown>;

/** Issues an application token with `scopes` (an API scope plus a PSU context scope). */
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
