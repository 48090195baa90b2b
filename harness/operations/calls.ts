import type { Profile } from '../config/profile.js';
import type { ApiClient, HeaderSpec } from '../http/client.js';
import type { SignOptions } from '../http/signing.js';
import type { ApiResponse } from '../http/response.js';
import type { Operation } from './table.js';

// Calling the operations: how a call is asked for (CallOptions), an operation bound to its
// prerequisites (Bound), and what a call is prepared from (Prepared, made with a PrepKit by
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
  /** The path called instead of the operation's own (e.g. the same resource under another payment product). */
  path?: (path: string) => string;
}

/** An operation bound to its prerequisites: call it as often as needed. */
export interface Bound {
  op: Operation;
  /** "Create consent (POST psd2/consent/v1/consents)". */
  label: string;
  call(o?: CallOptions): Promise<ApiResponse>;
  /**
   * What a state-changing call would change, read without changing it (for example the status of
   * the resource it deletes, or the authorisations of the resource it starts one on); undefined
   * where only the refused answer itself can show that nothing was created (it carries no id).
   */
  state?(): Promise<string>;
}

/** What calling an operation takes, made ready by its prerequisites: its path and what it sends unless told otherwise. */
export interface Prepared {
  path: string;
  base?: HeaderSpec;
  json?: unknown;
  query?: Record<string, string>;
  /** The consent of an account read (called through the account client). */
  accountRead?: string;
  state?: Bound['state'];
}

/** What every preparation uses: the operation, its template filled, the PSU's headers, and reads of a resource. */
export interface PrepKit {
  o: Operation;
  psu: HeaderSpec;
  /** The operation's path: its template's variables from `vars`, else from the profile's paths. */
  fill(vars: Record<string, string>): string;
  statusOf(path: string, key: string): Promise<string>;
  countOf(path: string, key: string): Promise<string>;
  /** An authorisation's SCA status (GET) or update (PUT, choosing its decoupled method), on its own href. */
  onAuthorisation(a: { href: string; method: string }): Prepared;
}

export function prepKit(o: Operation, profile: Profile, api: ApiClient, psu: HeaderSpec): PrepKit {
  const statusOf = async (p: string, key: string) =>
    String((await api.get(p, { headers: psu })).json<Record<string, unknown>>()[key]);
  return {
    o,
    psu,
    fill: (vars) =>
      o.template.replace(/\{([^}]+)\}/g, (_m, k: string) => {
        const v = vars[k] ?? (profile.paths as Record<string, string | undefined>)[k];
        if (v === undefined) throw new Error(`operation ${o.id}: no value for {${k}}`);
        return k in vars ? encodeURIComponent(v) : v;
      }),
    statusOf,
    countOf: async (p, key) =>
      `${key}: ${JSON.stringify((await api.get(p, { headers: psu })).json<Record<string, unknown>>()[key])}`,
    onAuthorisation: (a) =>
      o.method === 'PUT'
        ? {
            path: a.href,
            base: psu,
            json: { authenticationMethodId: a.method },
            state: () => statusOf(a.href, 'scaStatus'),
          }
        : { path: a.href, base: psu },
  };
}

export const idOf = (basePath: string) => basePath.split('/').pop()!;

export function noWayToCall(o: Operation): never {
  throw new Error(`operation ${o.id}: no way to call it`);
}
