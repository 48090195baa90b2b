import type { Combination } from '../areas/payment-combinations.js';
import type { ApiClient, HeaderSpec, QueryValue } from '../http/client.js';
import type { SignOptions } from '../http/signing.js';
import type { ApiResponse } from '../http/response.js';
import type { Operation, PrepKit, World } from './types.js';

// Calling the operations: how a call is asked for (CallOptions), an operation bound to its
// prerequisites (Bound), and the kit a row's preparation is given (prepKit, made by
// OperationWorld in harness/operations/world.ts).

export interface CallOptions {
  /** Over the operation's own headers; `null` leaves one out. */
  headers?: HeaderSpec;
  /** Send no Authorization at all. */
  noAuth?: boolean;
  /** Sign the call (Authentication 6) with the settings' identity, or as the client's `sign` option says (another Digest…). */
  sign?: boolean | SignOptions;
  /** Over the operation's own body (its valid body where it has one). */
  json?: unknown;
  /** A raw body instead of any JSON (malformed input: its Content-Type in `headers`). */
  raw?: string;
  /** Over the operation's own query parameters (an account read's). */
  query?: Record<string, QueryValue>;
  /** The path called instead of the operation's own (e.g. the same resource under another payment product). */
  path?: (path: string) => string;
  /** A 5xx is an answer to judge (the generated phase: "no request ever gets a 5xx"), not a broken target. */
  allow5xx?: boolean;
}

/** An operation bound to its prerequisites: call it as often as needed. */
export interface Bound {
  op: Operation;
  /** "Create consent (POST psd2/consent/v1/consents)". */
  label: string;
  call(o?: CallOptions): Promise<ApiResponse>;
  /** What a state-changing call would change, read without changing it (Prepared's `state`). */
  state?(): Promise<string>;
  /** The SCA methods offered to the authorisation the call starts (Prepared's `offered`). */
  offered?: string[];
  /** Its valid body (Prepared's `json`), which the generated phase's changes are made on. */
  body?: unknown;
}

/** The kit of one operation's preparation: `c` its payment combination, `api` its group's client. */
export function prepKit(k: { o: Operation; w: World; c?: Combination; api: ApiClient; psu: HeaderSpec }): PrepKit {
  const { o, w, c, api, psu } = k;
  const statusOf = async (p: string, key: string) =>
    String((await api.get(p, { headers: psu })).json<Record<string, unknown>>()[key]);
  const countOf = async (p: string, key: string) =>
    `${key}: ${JSON.stringify((await api.get(p, { headers: psu })).json<Record<string, unknown>>()[key])}`;
  const pay: Record<string, string> = c ? { 'payment-service': c.service, 'payment-product': c.product } : {};
  return {
    o,
    w,
    c,
    psu,
    fill: (given) => {
      const vars: Record<string, string> = { ...pay, ...given };
      return o.template.replace(/\{([^}]+)\}/g, (_m, name: string) => {
        const v = vars[name] ?? (w.profile.paths as Record<string, string | undefined>)[name];
        if (v === undefined) throw new Error(`operation ${o.id}: no value for {${name}}`);
        return name in vars ? encodeURIComponent(v) : v;
      });
    },
    statusOf,
    countOf,
    onAuthorisation: (a) =>
      o.method === 'PUT'
        ? {
            path: a.href,
            base: psu,
            json: { authenticationMethodId: a.method },
            state: () => statusOf(a.href, 'scaStatus'),
            offered: a.offered,
          }
        : { path: a.href, base: psu },
    startOn: (path, key) => ({
      path,
      base: { ...psu, 'TPP-Redirect-Preferred': 'false' },
      ...(key ? { state: () => countOf(path, key) } : {}),
    }),
  };
}

/** The id at the end of a resource's base path. */
export const idOf = (basePath: string) => basePath.split('/').pop()!;

/** The payment combination of a payment operation's kit (claims.ts gives one to every claimed payment operation). */
export function combinationOf(k: PrepKit): Combination {
  if (!k.c) throw new Error(`operation ${k.o.id}: no payment service and product to call it on`);
  return k.c;
}
