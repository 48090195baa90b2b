import type { Target } from '../config/target.js';
import type { Exchange } from '../http/response.js';
import { OPERATIONS } from './table.js';
import type { Operation } from './types.js';
import { PAYMENT_PRODUCTS, PAYMENT_SERVICES } from '../../schemas/payments/products.js';

/**
 * The positive control of each operation (its row's `control`, harness/operations/table.ts): the
 * requirement that judges its valid call (the same request made valid is accepted). A refusal of
 * the operation judges its rule only when the bank was seen accepting the valid call: in the same
 * test, or by this requirement (harness/expect.ts, `toBeRefused`; harness/reporter/fold.ts).
 * Beside the operations, the token endpoint ("oauth.token": a code exchanged for a token).
 */
export const CONTROLS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(OPERATIONS.map((o) => [o.id, o.control])),
  'oauth.token': 'oauth.token.exchange',
};

/**
 * The positive control of every signed call, whatever its operation: a refusal of a signed call
 * (a Digest or signature rule) proves its rule only beside the same call, signed correctly,
 * accepted; an unsigned call accepted proves nothing of a bank that refuses every signed one.
 */
export const SIGNED_CONTROL = 'headers.signing.signed-accepted';

/** The path parameters that make a call of another kind: the payment service and product. */
const KIND_PARAMS = new Set(['payment-service', 'payment-product']);

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const trimSlashes = (s: string) => s.replace(/^\/+|\/+$/g, '');

/** An operation's URL template as a pattern under the profile's paths, and its length of literal text. */
interface Template {
  id: string;
  method: string;
  pattern: RegExp;
  literal: number;
  /** The names of the captured parameters (KIND_PARAMS), in order. */
  captured: string[];
}

/**
 * The operations' templates compiled once per profile's paths (operationAt runs on every exchange
 * of every test): a path the profile fixes is literal text, a parameter any one segment, and an
 * operation whose path the profile leaves out matches nothing.
 */
const templates = new WeakMap<object, Template[]>();
function templatesOf(paths: Record<string, string | undefined>): Template[] {
  let compiled = templates.get(paths);
  if (compiled) return compiled;
  compiled = OPERATIONS.flatMap((o) => {
    let literal = 0;
    let missing = false;
    const captured: string[] = [];
    const pattern = o.template.replace(
      /\{([^}]+)\}|([^{]+)/g,
      (_m, name: string | undefined, text: string | undefined) => {
        if (text !== undefined) {
          literal += text.length;
          return escapeRe(text);
        }
        const fixed = paths[name!];
        if (fixed !== undefined) {
          literal += fixed.length;
          return escapeRe(trimSlashes(fixed));
        }
        if (name! in (paths as object)) missing = true;
        if (!KIND_PARAMS.has(name!)) return '[^/]+';
        captured.push(name!);
        return '([^/]+)';
      },
    );
    return missing ? [] : [{ id: o.id, method: o.method, pattern: new RegExp(`^${pattern}$`), literal, captured }];
  });
  templates.set(paths, compiled);
  return compiled;
}

/** The operation a request was a call of, and the kind parameters of its path (service, product). */
interface Matched {
  id: string;
  params: Record<string, string>;
}

function matchOperation(target: Target, method: string, url: string): Matched | undefined {
  let path: string;
  try {
    path = trimSlashes(new URL(url).pathname);
  } catch {
    return undefined;
  }
  const under = (base: string) => {
    try {
      return trimSlashes(new URL(base).pathname);
    } catch {
      return '';
    }
  };
  const tokenPath = target.tokenUrl
    ? under(target.tokenUrl)
    : trimSlashes(`${under(target.authUrl)}/${trimSlashes(target.profile.oauth.tokenPath)}`);
  if (method.toUpperCase() === 'POST' && path === tokenPath) return { id: 'oauth.token', params: {} };
  const root = under(target.baseUrl);
  const rel = root && path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
  const paths = target.profile.paths as Record<string, string | undefined>;
  const m = method.toUpperCase();
  let best: (Matched & { literal: number }) | undefined;
  for (const o of templatesOf(paths)) {
    if (o.method !== m) continue;
    const found = o.pattern.exec(rel);
    if (!found || (best && o.literal <= best.literal)) continue;
    best = { id: o.id, literal: o.literal, params: Object.fromEntries(o.captured.map((n, i) => [n, found[i + 1]])) };
  }
  return best && { id: best.id, params: best.params };
}

/**
 * The operation a request was a call of (method and URL, matched against the profile's paths
 * under the target's base URL), or the token endpoint ("oauth.token"); undefined for any other
 * request. Where two templates match, the one with more literal text wins (a basket's status
 * over a payment read).
 */
export function operationAt(target: Target, method: string, url: string): string | undefined {
  return matchOperation(target, method, url)?.id;
}

/** What makes two calls of one operation the same kind of request, and the control of that kind. */
export interface RequestKind {
  operation: string;
  /** Equal for two calls of the same kind: operation, payment service and product, body shape, signed or not. */
  key: string;
  /**
   * The requirements that judge the valid call of this kind: the operation's (its row's control), and for a
   * signed call SIGNED_CONTROL beside it (none where the operation has no control).
   */
  controls: string[];
}

const headerOf = (e: Exchange, name: string) =>
  Object.entries(e.requestHeaders).find(([k]) => k.toLowerCase() === name)?.[1];

/** The shape of a request's body: none, JSON, XML, a form, or another media type. */
function bodyShape(e: Exchange): string {
  if (e.requestBody === undefined || e.requestBody === '') return 'no body';
  const type = (headerOf(e, 'content-type') ?? '').toLowerCase();
  return /json/.test(type)
    ? 'json'
    : /xml/.test(type)
      ? 'xml'
      : /form/.test(type)
        ? 'form'
        : `body ${type || 'untyped'}`;
}

/** Between the parts of a kind's key: operation, payment service and product, body shape, signed or not. */
export const KIND_SEPARATOR = ' | ';

/** In a kind's key, the service and product of a call on a product the specification does not know: made valid, any product. */
export const ANY_PRODUCT = '*';

const KNOWN: Readonly<Record<string, readonly string[]>> = {
  'payment-service': PAYMENT_SERVICES,
  'payment-product': PAYMENT_PRODUCTS,
};

/**
 * A call's service and product ("payments/sepa-credit-transfers"), or ANY_PRODUCT where one is none
 * the specification knows (an unknown product refused: the same call made valid is the call of a
 * known one, whichever it is).
 */
const kindParams = (params: Record<string, string>): string =>
  Object.entries(params).some(([name, value]) => !KNOWN[name]?.includes(value))
    ? ANY_PRODUCT
    : Object.values(params).join('/');

/**
 * The kind of request an exchange was: its operation, its payment service and product, the shape
 * of its body and whether it was signed. A refusal is controlled by a call of the same kind
 * accepted in the same test, or else by the requirements that judge that kind's valid call: the
 * operation's (CONTROLS), and a signed call's SIGNED_CONTROL too.
 */
export function requestKind(target: Target, e: Exchange): RequestKind | undefined {
  const m = matchOperation(target, e.method, e.url);
  if (!m) return undefined;
  const signed = headerOf(e, 'signature') !== undefined;
  return {
    operation: m.id,
    key: [m.id, kindParams(m.params), bodyShape(e), signed ? 'signed' : 'unsigned'].join(KIND_SEPARATOR),
    controls: [CONTROLS[m.id], ...(signed ? [SIGNED_CONTROL] : [])].filter((c): c is string => c !== undefined),
  };
}

/** The member of a creation's success answer that names what it made, by the answer's schema. */
const CREATED_ID: Readonly<Record<string, string>> = {
  'consents/consent-created': 'consentId',
  'payments/payment-initiated': 'paymentId',
  'direct-debit/payment-created': 'paymentId',
  'signing-baskets/basket-created': 'basketId',
  'authorisations/authorisation-created': 'authorisationId',
};

const byId = new Map<string, Operation>(OPERATIONS.map((o) => [o.id, o]));

/** The id member a call of `operation` must answer with to be a creation accepted (none for an operation that creates nothing). */
export function createdIdOf(operation: string): string | undefined {
  const o = byId.get(operation);
  return o && o.method === 'POST' && o.response ? CREATED_ID[o.response] : undefined;
}

/**
 * The kind of request an exchange was seen accepted as, or undefined when it was not an
 * acceptance: a 2xx of a known operation that, where the operation creates a resource, names it
 * (its consentId, paymentId, basketId or authorisationId). What the answer says besides (its links,
 * its other members) is the control requirement's to judge: a refusal's control is that the bank
 * was seen accepting the same kind of request, in the test or anywhere in the run
 * (harness/test.ts records it, harness/reporter/fold.ts reads it).
 */
export function acceptedKind(target: Target, e: Exchange): string | undefined {
  if (e.status === undefined || e.status < 200 || e.status >= 300) return undefined;
  const kind = requestKind(target, e);
  if (!kind) return undefined;
  const member = createdIdOf(kind.operation);
  if (member && !new RegExp(`"${member}"\\s*:\\s*"[^"]+"`).test(e.responseBody ?? '')) return undefined;
  return kind.key;
}
