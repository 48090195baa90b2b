import type { SchemaId } from '../../schemas/index.js';
import type { Combination } from '../areas/payment-combinations.js';
import type { Profile } from '../config/profile.js';
import type { HeaderSpec } from '../http/client.js';
import type { ApiResponse } from '../http/response.js';

// The shape of an operation of the table (harness/operations/table.ts, its rows in rows/), and
// what a row's preparation is given (PrepKit: the world's shared set-up, World, made in
// harness/operations/world.ts) and returns (Prepared).

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The resource groups of the endpoint sections; the header checks run one test per rule and group. */
export type OperationGroup = 'directory' | 'consents' | 'accounts' | 'payments' | 'signing-baskets' | 'direct-debit';

/**
 * Groups of optional headers ("Common request headers"): "Every operation accepts the headers of
 * the group it needs (signature headers, forwarded PSU headers, and for creating or updating
 * authorisations the PSU identification headers). Redirect and notification headers are accepted
 * on create consent, initiate payment, create signing basket and the start-authorisation operations."
 */
export type HeaderGroup =
  | 'signature'
  | 'psu-forwarded'
  | 'psu-identification'
  | 'redirect'
  | 'notification'
  | 'explicit-authorisation'
  | 'rejection-no-funds';

/** One operation of the specification: everything the suite knows of it, in one row. */
export interface Operation {
  /** Stable id, e.g. "payments.cancellation-authorisations.status". */
  id: string;
  /** The specification's name of the operation, e.g. "Cancellation SCA status". */
  name: string;
  /** The endpoint section that states it. */
  section: string;
  group: OperationGroup;
  method: Method;
  /** The path, `{name}` for each path parameter, under the profile's path of the group. */
  template: string;
  /** Profile features that claim the operation (every one must be claimed). */
  features: string[];
  /** Headers the operation requires beside X-Request-ID and Authorization (every operation's). */
  requires: string[];
  /** Groups of optional headers the operation accepts. */
  accepts: HeaderGroup[];
  /** Request body schema, where the operation has one. */
  request?: SchemaId;
  /** Response schema of its success. */
  response?: SchemaId;
  /** The call changes state: a refused call must leave the resource as it was. */
  changes: boolean;
  /**
   * Its positive control: the requirement that judges its valid call (the same request made valid
   * is accepted). A refusal of the operation judges its rule only when the bank was seen accepting
   * the valid call: in the same test, or by this requirement (harness/operations/controls.ts).
   */
  control: string;
  /** Its valid call, made ready from the world's shared set-up (once per test, shared by its calls). */
  prepare(k: PrepKit): Promise<Prepared>;
}

/**
 * What a row's preparation uses of the areas' clients (OperationWorld is given the clients of
 * harness/areas/ themselves; the table stays below them, as harness/test.ts, which they extend,
 * finds a request's operation in it).
 */
export interface AreaClients {
  consents: { psuHeaders(): HeaderSpec; basePath(consentId: string): string; readonly created: string[] };
  payments: { productHeaders(c: Combination): HeaderSpec; body(c: Combination): unknown; readonly created: string[] };
  baskets: { read(basketId: string): Promise<ApiResponse>; readonly created: string[] };
  directDebit: { psuHeaders(): HeaderSpec; body(): unknown; get(paymentId: string): Promise<ApiResponse> };
}

/** An authorisation created and not started: its href, the SCA method a PUT chooses and every method its creation offered. */
export interface Authorisation {
  href: string;
  method: string;
  /** The authenticationMethodIds of the creation's scaMethods (the generated starts draw from them). */
  offered?: string[];
}

/**
 * The world's shared set-up (OperationWorld, harness/operations/world.ts): the resources the
 * operations are called on, each made on first need under its key and shared by every call of
 * the test. A destructive operation asks for a resource under a key of its own.
 */
export interface World {
  readonly c: AreaClients;
  readonly profile: Profile;
  /** The body of a one-off account-information consent, as `consent()` creates one. */
  oneOffConsent(): unknown;
  directoryIds(): Promise<{ bicFi: string; cityId: string; isoCountryCode: string }>;
  consent(key?: string): Promise<string>;
  consentAuthorisation(): Promise<Authorisation>;
  accountRead(): Promise<{ consentId: string; accountId: string; transactionId?: string; noTransaction?: string }>;
  payment(c: Combination, key?: string): Promise<string>;
  paymentAuthorisation(c: Combination): Promise<Authorisation>;
  cancelled(c: Combination): Promise<string>;
  cancellationAuthorisation(c: Combination): Promise<Authorisation>;
  basketPayments(): Promise<string[]>;
  basket(key?: string): Promise<string>;
  basketAuthorisation(): Promise<Authorisation>;
  directDebitPayment(key?: string): Promise<string>;
  directDebitConsent(): Promise<string>;
}

/** What calling an operation takes, made ready by its prerequisites: its path and what it sends unless told otherwise. */
export interface Prepared {
  path: string;
  base?: HeaderSpec;
  json?: unknown;
  query?: Record<string, string>;
  /** The consent of an account read (called through the account client). */
  accountRead?: string;
  /**
   * What a state-changing call would change, read without changing it (for example the status of
   * the resource it deletes, or the authorisations of the resource it starts one on); undefined
   * where only the refused answer itself can show that nothing was created (it carries no id).
   */
  state?: () => Promise<string>;
  /** Keeps for clean-up what a call that should have been refused created (its 2xx body), as the areas' own creations are. */
  created?: (body: Record<string, unknown>) => void;
  /** The SCA methods the authorisation a PUT starts was offered (Authorisation's `offered`). */
  offered?: string[];
}

/** What every preparation is given: the operation, the world, its template filled, the PSU's headers, and reads of a resource. */
export interface PrepKit {
  o: Operation;
  w: World;
  /** The payment service and product a payment operation is called on (harness/operations/claims.ts). */
  c?: Combination;
  psu: HeaderSpec;
  /**
   * The operation's path: its template's variables from `vars`, else (a payment operation's
   * service and product) from `c`, else from the profile's paths.
   */
  fill(vars: Record<string, string>): string;
  statusOf(path: string, key: string): Promise<string>;
  countOf(path: string, key: string): Promise<string>;
  /** An authorisation's SCA status (GET) or update (PUT, choosing its decoupled method), on its own href. */
  onAuthorisation(a: Authorisation): Prepared;
  /**
   * A start of an authorisation on `path` (the PSU's headers, no redirect preferred), whose state
   * is the list `key` of the resource (none: only the refused answer shows nothing was created).
   */
  startOn(path: string, key?: string): Prepared;
}
