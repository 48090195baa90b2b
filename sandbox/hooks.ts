import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { issueToken } from './auth/tokens.js';
import type { Authorisation, EndListener } from './sca/engine.js';

// The hooks a fault or a variant installs on the built app to bend one behaviour of the sandbox:
// rewrite an answer, run before a route's checks or its header guards, serve with another scope.
// Shared by sandbox/faults/ (must fail) and sandbox/variants/ (must stay conformant); neither
// imports the other.

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

/** Any start-authorisation operation (consent, payment, cancellation, basket), by its PUT route. */
const ANY_START = /\/(cancellation-)?authorisations\/:authorisationId$/;

/** The scaOAuth links of every start answer lose the parameters the client fills (client_id, redirect_uri, state). */
export const leaveClientFieldsToClient = (app: FastifyInstance) =>
  rewriteJson(app, { method: 'PUT', route: ANY_START }, (b: Record<string, any>) => {
    const href = b._links?.scaOAuth?.href;
    if (typeof href !== 'string') return;
    const u = new URL(href);
    for (const name of ['client_id', 'redirect_uri', 'state']) u.searchParams.delete(name);
    b._links.scaOAuth.href = u.toString();
  });

/** The token endpoint takes a JSON body as it takes a form (the fault oauth.token-json-accepted, the variant oauth.token-json-also-accepted). */
export const acceptJsonAtToken = (app: FastifyInstance) =>
  beforeHandler(app, { method: 'POST', route: /^\/connect\/token$/ }, (req) => {
    if (String(req.headers['content-type'] ?? '').startsWith('application/json'))
      req.headers['content-type'] = 'application/x-www-form-urlencoded';
  });

/** A payment resource and a signing basket, by their route patterns. */
const PAYMENT = /^\/psd2\/paymentinitiation\/v1\/:paymentService\/:paymentProduct\/:paymentId$/;
const BASKET = /^\/psd2\/paymentinitiation\/v1\/signing-baskets\/:basketId$/;

const CONSENT_ONE = /^\/psd2\/consent\/v1\/consents\/:consentId$/;

/**
 * Cancel payment (a cancellation that needs no authorisation) or delete consent answers with no
 * body instead of the specification's (section D: "response: transactionStatus and links";
 * section B: "response uses the message-and-links structure"): by default Berlin Group's 204 (the
 * no-content reading), or the status given (a 200 with no body, neither reading).
 */
export function answerWithoutBody(app: FastifyInstance, what: 'cancel' | 'delete-consent', status = 204): void {
  const route = what === 'cancel' ? PAYMENT : CONSENT_ONE;
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.method !== 'DELETE' || !route.test(req.routeOptions.url ?? '') || reply.statusCode !== 200) return payload;
    reply.status(status).removeHeader('content-type');
    return '';
  });
}

/**
 * Delete basket keeps the basket readable with its final status, CANC unless told (204 all the
 * same): the deletion marks it instead of removing it. Only a deletion the reference sandbox would allow.
 */
export function keepDeletedBasketAsCancelled(app: FastifyInstance, status: 'CANC' | 'RJCT' = 'CANC'): void {
  app.addHook('preHandler', async (req, reply) => {
    if (req.method !== 'DELETE' || !BASKET.test(req.routeOptions.url ?? '')) return;
    const svc = app.sandbox.payments;
    const b = svc.baskets.get((req.params as { basketId: string }).basketId);
    if (!b || b.clientId !== req.token?.clientId || !svc.basketDeletable(b)) return;
    b.status = status;
    await reply.status(204).send();
  });
}

/** Bends the consent service's reaction to the end of an SCA (installed before the routes register theirs). */
export function wrapConsentEnd(app: FastifyInstance, wrap: (listener: EndListener, auth: Authorisation) => void): void {
  const sca = app.sandbox.sca;
  const onEnd = sca.onEnd.bind(sca);
  sca.onEnd = (type, listener) => onEnd(type, type === 'consent' ? (auth) => wrap(listener, auth) : listener);
}

/** A uuid as a lenient lookup reads it (hyphens optional, braces allowed), in its canonical form; anything else unchanged. */
export function asUuid(value: string): string {
  const hex = value.replace(/^\{|\}$/g, '').replace(/-/g, '');
  return /^[0-9a-f]{32}$/i.test(hex)
    ? [0, 8, 12, 16, 20].map((at, i, all) => hex.slice(at, all[i + 1] ?? 32)).join('-')
    : value;
}

/** City and the cityIds filter of List banks read a uuid as a lenient lookup does (asUuid). */
export function readUuidsLeniently(app: FastifyInstance): void {
  beforeHandler(app, { route: /\/cities\/:cityId$/ }, (req) => {
    const p = req.params as { cityId: string };
    p.cityId = asUuid(p.cityId);
  });
  beforeHandler(app, { route: /\/aspspinformation\/v1\/aspsps$/ }, (req) => {
    const q = req.query as Record<string, unknown>;
    if (Array.isArray(q.cityIds)) q.cityIds = q.cityIds.map((v) => asUuid(String(v)));
    else if (typeof q.cityIds === 'string') q.cityIds = asUuid(q.cityIds);
  });
}
