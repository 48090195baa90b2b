import type { SchemaId } from '../schemas/index.js';
import type { Target } from './config/target.js';

/*
 * Every operation of the specification as data: method, path template (the profile's paths), the
 * headers it requires and the groups of optional headers it accepts ("Common request headers" and
 * the endpoint tables), its schemas and the features that claim it; and a way to call each one
 * with valid prerequisites, made once per test and shared by every call of the test.
 */

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

export const HEADER_GROUPS: Record<HeaderGroup, readonly string[]> = {
  signature: ['Digest', 'Signature', 'TPP-Signature-Certificate'],
  'psu-forwarded': [
    'PSU-IP-Port',
    'PSU-Accept',
    'PSU-Accept-Charset',
    'PSU-Accept-Encoding',
    'PSU-Accept-Language',
    'PSU-User-Agent',
    'PSU-Http-Method',
    'PSU-Device-ID',
    'PSU-Geo-Location',
  ],
  'psu-identification': ['PSU-ID-Type', 'PSU-Corporate-ID-Type'],
  redirect: ['TPP-Redirect-URI', 'TPP-Nok-Redirect-URI'],
  notification: ['TPP-Notification-URI', 'TPP-Notification-Content-Preferred'],
  'explicit-authorisation': ['TPP-Explicit-Authorisation-Preferred'],
  'rejection-no-funds': ['TPP-Rejection-NoFunds-Preferred'],
};

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

const AUTH_START: HeaderGroup[] = ['signature', 'psu-forwarded', 'psu-identification', 'redirect', 'notification'];
const AUTH_UPDATE: HeaderGroup[] = ['signature', 'psu-forwarded', 'psu-identification'];
const READ: HeaderGroup[] = ['signature', 'psu-forwarded'];
const BIC = ['X-BicFi'];

const op = (o: Omit<Operation, 'changes'> & { changes?: boolean }): Operation => ({
  changes: o.method !== 'GET',
  ...o,
});

/** The operations of sections A to E and H (section F's flow runs on the authorisation operations of B, D and E). */
export const OPERATIONS: readonly Operation[] = [
  // A. ASPSP information: "Headers: X-Request-ID (required), Digest, Signature, TPP-Signature-Certificate."
  ...(
    [
      ['list-banks', 'List banks', '{aspsps}', 'directory/aspsp-list'],
      ['bank', 'Bank detail', '{aspsps}/{bicFi}', 'directory/aspsp-detail'],
      ['list-cities', 'List cities', '{cities}', 'directory/city-list'],
      ['city', 'City', '{cities}/{city-id}', 'directory/city'],
      ['list-countries', 'List countries', '{countries}', 'directory/country-list'],
      ['country', 'Country', '{countries}/{isoCountryCode}', 'directory/country'],
    ] as const
  ).map(([id, name, template, response]) =>
    op({
      id: `directory.${id}`,
      name,
      section: 'A. ASPSP information',
      group: 'directory',
      method: 'GET',
      template,
      features: ['directory'],
      requires: [],
      accepts: ['signature'],
      response,
    }),
  ),
  // B. Consents
  op({
    id: 'consents.create',
    name: 'Create consent',
    section: 'B. Consents',
    group: 'consents',
    method: 'POST',
    template: '{consents}',
    features: ['consents'],
    requires: BIC,
    accepts: ['signature', 'psu-forwarded', 'redirect', 'notification', 'explicit-authorisation'],
    request: 'consents/consent-request',
    response: 'consents/consent-created',
  }),
  op({
    id: 'consents.read',
    name: 'Read consent',
    section: 'B. Consents',
    group: 'consents',
    method: 'GET',
    template: '{consents}/{consentId}',
    features: ['consents'],
    requires: BIC,
    accepts: READ,
    response: 'consents/consent',
  }),
  op({
    id: 'consents.status',
    name: 'Consent status',
    section: 'B. Consents',
    group: 'consents',
    method: 'GET',
    template: '{consents}/{consentId}/status',
    features: ['consents'],
    requires: BIC,
    accepts: READ,
    response: 'consents/consent-status',
  }),
  op({
    id: 'consents.authorisations.start',
    name: 'Start authorisation (consent)',
    section: 'B. Consents',
    group: 'consents',
    method: 'POST',
    template: '{consents}/{consentId}/authorisations',
    features: ['consents', 'authorisations'],
    requires: BIC,
    accepts: AUTH_START,
    response: 'authorisations/authorisation-created',
  }),
  op({
    id: 'consents.authorisations.list',
    name: 'List authorisations (consent)',
    section: 'B. Consents',
    group: 'consents',
    method: 'GET',
    template: '{consents}/{consentId}/authorisations',
    features: ['consents', 'authorisations'],
    requires: BIC,
    accepts: READ,
    response: 'authorisations/authorisation-list',
  }),
  op({
    id: 'consents.authorisations.status',
    name: 'Authorisation SCA status (consent)',
    section: 'B. Consents',
    group: 'consents',
    method: 'GET',
    template: '{consents}/{consentId}/authorisations/{authorisationId}',
    features: ['consents', 'authorisations'],
    requires: BIC,
    accepts: READ,
    response: 'authorisations/sca-status',
  }),
  op({
    id: 'consents.authorisations.update',
    name: 'Update PSU data (consent)',
    section: 'B. Consents',
    group: 'consents',
    method: 'PUT',
    template: '{consents}/{consentId}/authorisations/{authorisationId}',
    features: ['consents', 'authorisations'],
    requires: BIC,
    accepts: AUTH_UPDATE,
    request: 'authorisations/authorisation-start',
    response: 'authorisations/authorisation-started',
  }),
  op({
    id: 'consents.delete',
    name: 'Delete consent',
    section: 'B. Consents',
    group: 'consents',
    method: 'DELETE',
    template: '{consents}/{consentId}',
    features: ['consents'],
    requires: BIC,
    accepts: READ,
  }),
  // C. Account information: "All GET. `Consent-ID` is required."
  ...(
    [
      ['list', 'List accounts', '{accounts}', 'accounts/account-list'],
      ['detail', 'Account detail', '{accounts}/{account-id}', 'accounts/account-detail'],
      ['balances', 'Balances', '{accounts}/{account-id}/balances', 'accounts/balances'],
      ['transactions', 'Transaction list', '{accounts}/{account-id}/transactions', 'accounts/transaction-list'],
      [
        'transaction',
        'Transaction detail',
        '{accounts}/{account-id}/transactions/{transactionId}',
        'accounts/transaction-details',
      ],
    ] as const
  ).map(([id, name, template, response]) =>
    op({
      id: `accounts.${id}`,
      name,
      section: 'C. Account information',
      group: 'accounts',
      method: 'GET',
      template,
      features: ['accounts'],
      requires: [...BIC, 'Consent-ID'],
      accepts: READ,
      response,
    }),
  ),
  // D. Payment initiation
  op({
    id: 'payments.initiate',
    name: 'Initiate payment',
    section: 'D. Payment initiation',
    group: 'payments',
    method: 'POST',
    template: '{payments}/{payment-service}/{payment-product}',
    features: ['payments'],
    requires: [...BIC, 'PSU-IP-Address'],
    accepts: ['signature', 'psu-forwarded', 'redirect', 'notification', 'explicit-authorisation', 'rejection-no-funds'],
    response: 'payments/payment-initiated',
  }),
  op({
    id: 'payments.read',
    name: 'Read payment',
    section: 'D. Payment initiation',
    group: 'payments',
    method: 'GET',
    template: '{payments}/{payment-service}/{payment-product}/{paymentId}',
    features: ['payments'],
    requires: BIC,
    accepts: READ,
    response: 'payments/payment',
  }),
  op({
    id: 'payments.status',
    name: 'Payment status',
    section: 'D. Payment initiation',
    group: 'payments',
    method: 'GET',
    template: '{payments}/{payment-service}/{payment-product}/{paymentId}/status',
    features: ['payments'],
    requires: BIC,
    accepts: READ,
    response: 'payments/payment-status',
  }),
  op({
    id: 'payments.authorisations.start',
    name: 'Start authorisation (payment)',
    section: 'D. Payment initiation',
    group: 'payments',
    method: 'POST',
    template: '{payments}/{payment-service}/{payment-product}/{paymentId}/authorisations',
    features: ['payments', 'authorisations'],
    requires: BIC,
    accepts: AUTH_START,
    response: 'authorisations/authorisation-created',
  }),
  op({
    id: 'payments.authorisations.list',
    name: 'List authorisations (payment)',
    section: 'D. Payment initiation',
    group: 'payments',
    method: 'GET',
    template: '{payments}/{payment-service}/{payment-product}/{paymentId}/authorisations',
    features: ['payments', 'authorisations'],
    requires: BIC,
    accepts: READ,
    response: 'authorisations/authorisation-list',
  }),
  op({
    id: 'payments.authorisations.status',
    name: 'Authorisation SCA status (payment)',
    section: 'D. Payment initiation',
    group: 'payments',
    method: 'GET',
    template: '{payments}/{payment-service}/{payment-product}/{paymentId}/authorisations/{authorisationId}',
    features: ['payments', 'authorisations'],
    requires: BIC,
    accepts: READ,
    response: 'authorisations/sca-status',
  }),
  op({
    id: 'payments.authorisations.update',
    name: 'Update PSU data (payment)',
    section: 'D. Payment initiation',
    group: 'payments',
    method: 'PUT',
    template: '{payments}/{payment-service}/{payment-product}/{paymentId}/authorisations/{authorisationId}',
    features: ['payments', 'authorisations'],
    requires: BIC,
    accepts: AUTH_UPDATE,
    request: 'authorisations/authorisation-start',
    response: 'authorisations/authorisation-started',
  }),
  op({
    id: 'payments.cancel',
    name: 'Cancel payment',
    section: 'D. Payment initiation',
    group: 'payments',
    method: 'DELETE',
    template: '{payments}/{payment-service}/{payment-product}/{paymentId}',
    features: ['payments'],
    requires: BIC,
    accepts: READ,
  }),
  op({
    id: 'payments.cancellation-authorisations.start',
    name: 'Start cancellation authorisation',
    section: 'D. Payment initiation',
    group: 'payments',
    method: 'POST',
    template: '{payments}/{payment-service}/{payment-product}/{paymentId}/cancellation-authorisations',
    features: ['payments', 'payments.cancellation-authorisation'],
    requires: BIC,
    accepts: AUTH_START,
    response: 'authorisations/authorisation-created',
  }),
  op({
    id: 'payments.cancellation-authorisations.list',
    name: 'List cancellation authorisations',
    section: 'D. Payment initiation',
    group: 'payments',
    method: 'GET',
    template: '{payments}/{payment-service}/{payment-product}/{paymentId}/cancellation-authorisations',
    features: ['payments', 'payments.cancellation-authorisation'],
    requires: BIC,
    accepts: READ,
  }),
  op({
    id: 'payments.cancellation-authorisations.status',
    name: 'Cancellation SCA status',
    section: 'D. Payment initiation',
    group: 'payments',
    method: 'GET',
    template: '{payments}/{payment-service}/{payment-product}/{paymentId}/cancellation-authorisations/{cancellationId}',
    features: ['payments', 'payments.cancellation-authorisation'],
    requires: BIC,
    accepts: READ,
    response: 'authorisations/sca-status',
  }),
  op({
    id: 'payments.cancellation-authorisations.update',
    name: 'Update cancellation PSU data',
    section: 'D. Payment initiation',
    group: 'payments',
    method: 'PUT',
    template: '{payments}/{payment-service}/{payment-product}/{paymentId}/cancellation-authorisations/{cancellationId}',
    features: ['payments', 'payments.cancellation-authorisation'],
    requires: BIC,
    accepts: AUTH_UPDATE,
    request: 'authorisations/authorisation-start',
  }),
  // E. Signing baskets
  op({
    id: 'signing-baskets.create',
    name: 'Create basket',
    section: 'E. Signing baskets',
    group: 'signing-baskets',
    method: 'POST',
    template: '{signingBaskets}',
    features: ['signing-baskets'],
    requires: [...BIC, 'PSU-IP-Address'],
    accepts: ['signature', 'psu-forwarded', 'redirect', 'notification', 'explicit-authorisation'],
    request: 'signing-baskets/basket-request',
    response: 'signing-baskets/basket-created',
  }),
  op({
    id: 'signing-baskets.read',
    name: 'Read basket',
    section: 'E. Signing baskets',
    group: 'signing-baskets',
    method: 'GET',
    template: '{signingBaskets}/{basketId}',
    features: ['signing-baskets'],
    requires: BIC,
    accepts: READ,
    response: 'signing-baskets/basket',
  }),
  op({
    id: 'signing-baskets.status',
    name: 'Basket status',
    section: 'E. Signing baskets',
    group: 'signing-baskets',
    method: 'GET',
    template: '{signingBaskets}/{basketId}/status',
    features: ['signing-baskets'],
    requires: BIC,
    accepts: READ,
    response: 'signing-baskets/basket-status',
  }),
  op({
    id: 'signing-baskets.authorisations.start',
    name: 'Start authorisation (basket)',
    section: 'E. Signing baskets',
    group: 'signing-baskets',
    method: 'POST',
    template: '{signingBaskets}/{basketId}/authorisations',
    features: ['signing-baskets', 'authorisations'],
    requires: BIC,
    accepts: AUTH_START,
    response: 'authorisations/authorisation-created',
  }),
  op({
    id: 'signing-baskets.authorisations.update',
    name: 'Update PSU data (basket)',
    section: 'E. Signing baskets',
    group: 'signing-baskets',
    method: 'PUT',
    template: '{signingBaskets}/{basketId}/authorisations/{authorisationId}',
    features: ['signing-baskets', 'authorisations'],
    requires: BIC,
    accepts: AUTH_UPDATE,
    request: 'authorisations/authorisation-start',
    response: 'authorisations/authorisation-started',
  }),
  op({
    id: 'signing-baskets.delete',
    name: 'Delete basket',
    section: 'E. Signing baskets',
    group: 'signing-baskets',
    method: 'DELETE',
    template: '{signingBaskets}/{basketId}',
    features: ['signing-baskets'],
    requires: BIC,
    accepts: READ,
  }),
  // H. SEPA direct debit: "Headers: X-Request-ID, X-BicFi, PSU-ID, PSU-Corporate-ID, PSU-IP-Address, PSU-User-Agent."
  op({
    id: 'direct-debit.create',
    name: 'Create payment (direct debit)',
    section: 'H. SEPA direct debit',
    group: 'direct-debit',
    method: 'POST',
    template: '{directDebitCreate}',
    features: ['direct-debit'],
    requires: BIC,
    accepts: READ,
    request: 'direct-debit/payment-request',
    response: 'direct-debit/payment-created',
  }),
  op({
    id: 'direct-debit.get',
    name: 'Get payment (direct debit)',
    section: 'H. SEPA direct debit',
    group: 'direct-debit',
    method: 'GET',
    template: '{directDebitPayments}/{paymentId}',
    features: ['direct-debit'],
    requires: BIC,
    accepts: READ,
    response: 'direct-debit/payment',
  }),
  op({
    id: 'direct-debit.confirm',
    name: 'Confirm payment (direct debit)',
    section: 'H. SEPA direct debit',
    group: 'direct-debit',
    method: 'PUT',
    template: '{directDebitPayments}/confirm',
    features: ['direct-debit'],
    requires: [...BIC, 'Consent-ID'],
    accepts: READ,
    request: 'direct-debit/confirm-request',
    response: 'direct-debit/confirm-response',
  }),
];

export const GROUPS: readonly OperationGroup[] = [
  'directory',
  'consents',
  'accounts',
  'payments',
  'signing-baskets',
  'direct-debit',
];

export const operation = (id: string): Operation => {
  const found = OPERATIONS.find((o) => o.id === id);
  if (!found) throw new Error(`no operation ${id} in harness/operations.ts`);
  return found;
};

/**
 * The positive control of each operation: the requirement that judges its valid call (the same
 * request made valid is accepted). A refusal of the operation judges its rule only when the bank
 * was seen accepting the valid call: in the same test, or by this requirement
 * (harness/expect.ts, `toBeRefused`; harness/reporter/fold.ts).
 */
export const CONTROLS: Readonly<Record<string, string>> = {
  'directory.list-banks': 'directory.aspsps.list-shape',
  'directory.bank': 'directory.aspsp.detail-shape',
  'directory.list-cities': 'directory.cities.list-shape',
  'directory.city': 'directory.city.detail',
  'directory.list-countries': 'directory.countries.list-shape',
  'directory.country': 'directory.country.detail',
  'consents.create': 'consents.create.response',
  'consents.read': 'consents.read.fields',
  'consents.status': 'consents.status.response',
  'consents.authorisations.start': 'authorisations.create.response',
  'consents.authorisations.list': 'authorisations.list.contains',
  'consents.authorisations.status': 'authorisations.status.ends',
  'consents.authorisations.update': 'authorisations.update-psu-data.decoupled',
  'consents.delete': 'consents.delete.terminated',
  'accounts.list': 'accounts.list.shape',
  'accounts.detail': 'accounts.detail.shape',
  'accounts.balances': 'accounts.balances.shape',
  'accounts.transactions': 'accounts.transactions.shape',
  'accounts.transaction': 'accounts.transaction.details',
  'payments.initiate': 'payments.initiate.response',
  'payments.read': 'payments.read.fields',
  'payments.status': 'payments.status.response',
  'payments.authorisations.start': 'payments.authorisations.create',
  'payments.authorisations.list': 'payments.authorisations.list',
  'payments.authorisations.status': 'payments.authorisations.sca-status',
  'payments.authorisations.update': 'payments.authorisations.start',
  'payments.cancel': 'payments.cancel.response',
  'payments.cancellation-authorisations.start': 'payments.cancel.authorisations',
  'payments.cancellation-authorisations.list': 'payments.cancel.authorisations',
  'payments.cancellation-authorisations.status': 'payments.cancel.authorisations',
  'payments.cancellation-authorisations.update': 'payments.cancel.update-psu-data',
  'signing-baskets.create': 'signing-baskets.create.response',
  'signing-baskets.read': 'signing-baskets.read.response',
  'signing-baskets.status': 'signing-baskets.status.response',
  'signing-baskets.authorisations.start': 'signing-baskets.authorisation.start',
  'signing-baskets.authorisations.update': 'signing-baskets.authorisation.update-psu-data',
  'signing-baskets.delete': 'signing-baskets.delete.before-authorisation',
  'direct-debit.create': 'direct-debit.create.response',
  'direct-debit.get': 'direct-debit.get.fields',
  'direct-debit.confirm': 'direct-debit.confirm.file-uploaded',
  // Not an operation of the table: the token endpoint (a code exchanged for a token).
  'oauth.token': 'oauth.token.exchange',
};

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const trimSlashes = (s: string) => s.replace(/^\/+|\/+$/g, '');

/**
 * The operation a request was a call of (method and URL, matched against the profile's paths
 * under the target's base URL), or the token endpoint ("oauth.token"); undefined for any other
 * request. Where two templates match, the one with more literal text wins (a basket's status
 * over a payment read).
 */
export function operationAt(target: Target, method: string, url: string): string | undefined {
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
    : trimSlashes(`${under(target.authUrl)}/${trimSlashes(target.profile.oauth?.tokenPath ?? 'connect/token')}`);
  if (method.toUpperCase() === 'POST' && path === tokenPath) return 'oauth.token';
  const root = under(target.baseUrl);
  const rel = root && path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
  const paths = target.profile.paths as Record<string, string | undefined>;
  let best: { id: string; literal: number } | undefined;
  for (const o of OPERATIONS) {
    if (o.method !== method.toUpperCase()) continue;
    let literal = 0;
    let missing = false;
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
        return '[^/]+';
      },
    );
    if (missing || !new RegExp(`^${pattern}$`).test(rel)) continue;
    if (!best || literal > best.literal) best = { id: o.id, literal };
  }
  return best?.id;
}
