import type { SchemaId } from '../../schemas/index.js';

// The shape of an operation of the table (harness/operations/table.ts).

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

/** One operation of the specification. */
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
}
