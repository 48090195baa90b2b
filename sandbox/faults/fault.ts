import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ProfileClaims } from '../../profiles/profile.schema.js';
import { issueToken } from '../auth/tokens.js';

/**
 * A named fault: one behaviour of the sandbox broken on purpose, so the self-tests can show
 * that the suite's checks fail when a target breaks their requirement. Faults sit apart from
 * the clean code: each installs hooks (or wraps a service) on the built app.
 */
export interface Fault {
  id: string;
  description: string;
  /** Requirement ids that must come out failed (MUST) or warning (SHOULD) with the fault on; nothing else may. */
  breaks: string[];
  /**
   * Profile options the suite runs this fault under, over the target profile's (section by
   * section): a fault that breaks the other reading of a contradiction claims that reading.
   */
  claims?: ProfileClaims;
  install(app: FastifyInstance): void;
}

export interface RouteMatch {
  method?: string;
  /** Matched against the route pattern (e.g. /psd2/aspspinformation/v1/aspsps/:bicFi). */
  route: RegExp;
  /** Only answers with this status (default: any 2xx). */
  status?: number | ((status: number) => boolean);
}

const matches = (m: RouteMatch, req: FastifyRequest, reply: FastifyReply) => {
  const route = req.routeOptions.url ?? '';
  if (m.method && req.method !== m.method) return false;
  if (!m.route.test(route)) return false;
  const st = reply.statusCode;
  if (m.status === undefined) return st >= 200 && st < 300;
  return typeof m.status === 'number' ? st === m.status : m.status(st);
};

/** Rewrites the JSON body of matching answers; `edit` may mutate it or return a replacement. */
export function rewriteJson(
  app: FastifyInstance,
  m: RouteMatch,
  edit: (body: any, req: FastifyRequest, reply: FastifyReply) => unknown,
): void {
  app.addHook('onSend', async (req, reply, payload) => {
    if (typeof payload !== 'string' || !matches(m, req, reply)) return payload;
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      return payload;
    }
    const out = edit(body, req, reply);
    return JSON.stringify(out === undefined ? body : out);
  });
}

/** Changes answers of matching routes after the fact (status, headers). */
export function rewriteReply(
  app: FastifyInstance,
  m: RouteMatch,
  edit: (req: FastifyRequest, reply: FastifyReply) => void,
): void {
  app.addHook('onSend', async (req, reply, payload) => {
    if (matches(m, req, reply)) edit(req, reply);
    return payload;
  });
}

/**
 * Runs before the checks of matching routes (e.g. to make a check lenient): before their own
 * preValidation hooks (route hooks run last of their kind), their schema validation and handler.
 */
export function beforeHandler(
  app: FastifyInstance,
  m: Omit<RouteMatch, 'status'>,
  edit: (req: FastifyRequest, reply: FastifyReply) => void,
): void {
  app.addHook('preValidation', async (req, reply) => {
    const route = req.routeOptions.url ?? '';
    if ((m.method && req.method !== m.method) || !m.route.test(route)) return;
    edit(req, reply);
  });
}

/** Runs before the common header checks (onRequest) of matching routes. */
export function beforeGuard(
  app: FastifyInstance,
  m: Omit<RouteMatch, 'status'>,
  edit: (req: FastifyRequest, reply: FastifyReply) => void,
): void {
  app.addHook('onRequest', async (req, reply) => {
    const route = req.routeOptions.url ?? '';
    if ((m.method && req.method !== m.method) || !m.route.test(route)) return;
    edit(req, reply);
  });
}

/**
 * Serves the call with a fresh token that has API scope `scope` in the caller's context, leaving
 * the caller's own token as it was (tokens may be shared by sandboxes built side by side).
 */
export function serveWithScope(app: FastifyInstance, req: FastifyRequest, scope: string): void {
  const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  const info = m ? app.sandbox.tokens.get(m[1]) : undefined;
  if (!info || info.scopes.has(scope)) return;
  const context = [...info.scopes].filter((s) => s === 'private' || s === 'corporate');
  req.headers.authorization = `Bearer ${issueToken(app, info.clientId, [scope, ...context]).token}`;
}
