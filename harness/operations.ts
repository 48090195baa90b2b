import { randomUUID } from 'node:crypto';
import { mergeTests } from '@playwright/test';
import type { SchemaId } from '../schemas/index.js';
import { aisConsent, test as accountsTest, type AccountsClient } from './areas/accounts.js';
import type { ConsentsClient } from './areas/consents.js';
import { test as directDebitTest, type DirectDebitClient } from './areas/direct-debit.js';
import { test as directoryTest, type City, type Country, type DirectoryClient } from './areas/directory.js';
import {
  COMBINATIONS,
  firstClaimed,
  label,
  unclaimed,
  type Combination,
  type PaymentsClient,
} from './areas/payments.js';
import { test as basketsTest, type BasketsClient } from './areas/signing-baskets.js';
import type { Profile } from './config/profile.js';
import type { HeaderSpec } from './http/client.js';
import { perProofEntry } from './proof.js';
import type { ApiResponse } from './http/response.js';

import type { Target } from './config/target.js';
import { because, expect, req } from './test.js';

export { because, expect, req };

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

/** Why the profile does not claim an operation, or undefined when it does. */
export function unclaimedOperation(profile: Profile, o: Operation): string | undefined {
  const missing = o.features.filter((f) => !profile.features.includes(f));
  return missing.length ? `not claimed: the profile does not claim ${missing.join(', ')}` : undefined;
}

/** The payment combination the payment operations are called on (the first claimed), and the one for cancellation authorisations. */
export function paymentCombination(profile: Profile, o: Operation): Combination | undefined {
  if (o.id.startsWith('payments.cancellation-authorisations.')) {
    const needs = profile.payments?.cancellationAuthorisation ?? [];
    return COMBINATIONS.find((c) => !unclaimed(profile, c) && needs.includes(c.product));
  }
  return firstClaimed(profile);
}

// ---------------------------------------------------------------------------------------------
// Calling the operations
// ---------------------------------------------------------------------------------------------

export interface CallOptions {
  /** Over the operation's own headers; `null` leaves one out. */
  headers?: HeaderSpec;
  /** Send no Authorization at all. */
  noAuth?: boolean;
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

interface Clients {
  directory: DirectoryClient;
  consents: ConsentsClient;
  accounts: AccountsClient;
  recurring: () => Promise<string>;
  payments: PaymentsClient;
  baskets: BasketsClient;
  directDebit: DirectDebitClient;
}

const ok = (res: ApiResponse, what: string): ApiResponse => {
  if (res.status < 200 || res.status >= 300) throw new Error(`${what}: expected a 2xx; got ${res.describe()}`);
  return res;
};

/**
 * The prerequisites of every operation, made on first need and shared by every call of the test:
 * a consent and its authorisation, an authorised account consent with an account and a
 * transaction, payments and their authorisations, a cancellation, baskets, direct debit payments
 * and consent. A destructive operation (delete, cancel) gets a resource of its own.
 */
export class OperationWorld {
  private readonly memo = new Map<string, Promise<unknown>>();

  constructor(readonly c: Clients) {}

  get profile(): Profile {
    return this.c.consents.api.target.profile;
  }

  private once<T>(key: string, make: () => Promise<T>): Promise<T> {
    if (!this.memo.has(key)) this.memo.set(key, make());
    return this.memo.get(key) as Promise<T>;
  }

  private decoupledMethod(created: ApiResponse): string {
    const offered = (created.json<{ scaMethods?: { authenticationMethodId: string }[] }>().scaMethods ?? []).map(
      (m) => m.authenticationMethodId,
    );
    return ['mbid_same_device', 'mbid'].find((m) => offered.includes(m)) ?? offered[0] ?? 'mbid';
  }

  directoryIds(): Promise<{ bicFi: string; cityId: string; isoCountryCode: string }> {
    return this.once('directory', async () => {
      const d = this.c.directory;
      const bank = ok(await d.listBanks(), 'List banks').json<{ aspsps: { bicFi: string }[] }>().aspsps[0];
      const city = ok(await d.listCities(), 'List cities').json<{ cities: City[] }>().cities[0];
      const country = ok(await d.listCountries(), 'List countries').json<{ countries: Country[] }>().countries[0];
      return { bicFi: bank.bicFi, cityId: city.cityId, isoCountryCode: country.isoCountryCode };
    });
  }

  /** A one-off consent, not authorised (one-off: authorising it ends no recurring consent of the PSU). */
  consent(key = 'consent'): Promise<string> {
    return this.once(key, async () => {
      const res = ok(await this.c.consents.create({ body: aisConsent() }), 'create consent');
      return res.json<{ consentId: string }>().consentId;
    });
  }

  /** An authorisation of a resource, created and not started; returns its href. */
  private authorisation(key: string, base: string, sub: 'authorisations' | 'cancellation-authorisations') {
    return this.once(key, async () => {
      const headers = { ...this.c.payments.psuHeaders(), 'TPP-Redirect-Preferred': 'false' };
      const driver = base.startsWith(this.c.consents.path)
        ? this.c.consents.sca
        : base.startsWith(this.c.baskets.path)
          ? this.c.baskets.sca
          : this.c.payments.sca;
      const res = ok(await driver.create(base, sub, headers), `create ${sub} of ${base}`);
      const id = res.json<{ authorisationId: string }>().authorisationId;
      return { href: `${base}/${sub}/${id}`, method: this.decoupledMethod(res) };
    });
  }

  async consentAuthorisation() {
    return this.authorisation(
      'consent-authorisation',
      this.c.consents.basePath(await this.consent()),
      'authorisations',
    );
  }

  /** The worker's authorised account consent, an account it lists and a transaction of that account. */
  accountRead(): Promise<{ consentId: string; accountId: string; transactionId?: string }> {
    return this.once('account', async () => {
      const consentId = await this.c.recurring();
      const [account] = await this.c.accounts.accountsOf(consentId);
      const list = ok(
        await this.c.accounts.transactions(consentId, account.resourceId!, {
          bookingStatus: 'booked',
          dateFrom: '2000-01-01',
        }),
        'Transaction list',
      ).json<{ transactions?: { booked?: { transactionId?: string }[] } }>();
      const transactionId = list.transactions?.booked?.find((t) => t.transactionId)?.transactionId;
      return { consentId, accountId: account.resourceId!, transactionId };
    });
  }

  /** A payment of `c`, initiated, not authorised; returns its base path. */
  payment(c: Combination, key = 'payment'): Promise<string> {
    return this.once(`${key}:${label(c)}`, async () => (await this.c.payments.initiated(c)).basePath);
  }

  async paymentAuthorisation(c: Combination) {
    return this.authorisation(`payment-authorisation:${label(c)}`, await this.payment(c), 'authorisations');
  }

  /** A payment of `c` whose cancellation was asked for (DELETE), so that its cancellation authorisations exist. */
  cancelled(c: Combination): Promise<string> {
    return this.once(`cancelled:${label(c)}`, async () => {
      const basePath = await this.payment(c, 'to-cancel');
      ok(await this.c.payments.cancel(basePath), `cancel ${label(c)} payment`);
      return basePath;
    });
  }

  async cancellationAuthorisation(c: Combination) {
    return this.authorisation(`cancellation:${label(c)}`, await this.cancelled(c), 'cancellation-authorisations');
  }

  /** Payment ids for a new basket. */
  async basketPayments(): Promise<string[]> {
    return (await this.c.baskets.paymentsToSign(1)).map((p) => p.paymentId);
  }

  basket(key = 'basket'): Promise<string> {
    return this.once(key, async () => {
      const res = ok(await this.c.baskets.create(await this.basketPayments()), 'create signing basket');
      return res.json<{ basketId: string }>().basketId;
    });
  }

  async basketAuthorisation() {
    return this.authorisation('basket-authorisation', this.c.baskets.basePath(await this.basket()), 'authorisations');
  }

  directDebitPayment(key = 'dd-payment'): Promise<string> {
    return this.once(key, async () => (await this.c.directDebit.createPayment()).paymentId);
  }

  directDebitConsent(): Promise<string> {
    return this.once('dd-consent', () => this.c.directDebit.authorisedConsent());
  }

  /** Binds an operation to its prerequisites (made now, once per test). */
  async bind(o: Operation): Promise<Bound> {
    const { consents, accounts, payments, baskets, directDebit } = this.c;
    const profile = this.profile;
    const api = {
      directory: this.c.directory.api,
      consents: consents.api,
      accounts: accounts.api,
      payments: payments.api,
      'signing-baskets': baskets.api,
      'direct-debit': directDebit.api,
    }[o.group];
    let path = '';
    let base: HeaderSpec = {};
    let json: unknown;
    let query: Record<string, string> | undefined;
    /** The consent of an account read (called through the account client). */
    let accountRead: string | undefined;
    let state: Bound['state'];
    const psu = payments.psuHeaders();
    const c = o.group === 'payments' ? paymentCombination(profile, o) : undefined;
    const fill = (vars: Record<string, string>) => {
      path = o.template.replace(/\{([^}]+)\}/g, (_m, k: string) => {
        const v = vars[k] ?? (profile.paths as Record<string, string | undefined>)[k];
        if (v === undefined) throw new Error(`operation ${o.id}: no value for {${k}}`);
        return k in vars ? encodeURIComponent(v) : v;
      });
    };
    const pay = (c: Combination) => ({ 'payment-service': c.service, 'payment-product': c.product });
    const idOf = (basePath: string) => basePath.split('/').pop()!;
    const statusOf = async (p: string, key: string) =>
      String((await api.get(p, { headers: psu })).json<Record<string, unknown>>()[key]);
    const countOf = async (p: string, key: string) =>
      `${key}: ${JSON.stringify((await api.get(p, { headers: psu })).json<Record<string, unknown>>()[key])}`;
    /** An authorisation's SCA status (GET) or update (PUT, choosing its decoupled method), on its own href. */
    const onAuthorisation = (a: { href: string; method: string }) => {
      path = a.href;
      base = psu;
      if (o.method === 'PUT') {
        json = { authenticationMethodId: a.method };
        state = () => statusOf(a.href, 'scaStatus');
      }
    };

    switch (o.id) {
      case 'directory.list-banks':
      case 'directory.list-cities':
      case 'directory.list-countries':
        fill({});
        break;
      case 'directory.bank':
      case 'directory.city':
      case 'directory.country': {
        const ids = await this.directoryIds();
        fill({ bicFi: ids.bicFi, 'city-id': ids.cityId, isoCountryCode: ids.isoCountryCode });
        break;
      }
      case 'consents.create':
        fill({});
        base = consents.psuHeaders();
        json = aisConsent();
        break;
      case 'consents.read':
      case 'consents.status':
      case 'consents.authorisations.list':
        fill({ consentId: await this.consent() });
        break;
      case 'consents.authorisations.start': {
        fill({ consentId: await this.consent() });
        base = { ...psu, 'TPP-Redirect-Preferred': 'false' };
        state = () => countOf(path, 'authorisationIds');
        break;
      }
      case 'consents.authorisations.status':
      case 'consents.authorisations.update':
        onAuthorisation(await this.consentAuthorisation());
        break;
      case 'consents.delete': {
        const id = await this.consent('consent-to-delete');
        fill({ consentId: id });
        state = () => statusOf(`${consents.basePath(id)}/status`, 'consentStatus');
        break;
      }
      case 'accounts.list':
      case 'accounts.detail':
      case 'accounts.balances':
      case 'accounts.transactions':
      case 'accounts.transaction': {
        const a = await this.accountRead();
        if (o.id === 'accounts.transaction' && !a.transactionId)
          throw new Error('Transaction detail: the account lists no booked transaction with a transactionId');
        fill({ 'account-id': a.accountId, transactionId: a.transactionId ?? '' });
        accountRead = a.consentId;
        if (o.id === 'accounts.transactions') query = { bookingStatus: 'booked', dateFrom: '2000-01-01' };
        break;
      }
      case 'payments.initiate':
        fill(pay(c!));
        base = { ...psu, ...payments.productHeaders(c!) };
        json = payments.body(c!);
        break;
      case 'payments.read':
      case 'payments.status':
      case 'payments.authorisations.list':
        fill({ ...pay(c!), paymentId: idOf(await this.payment(c!)) });
        break;
      case 'payments.authorisations.start':
        fill({ ...pay(c!), paymentId: idOf(await this.payment(c!)) });
        base = { ...psu, 'TPP-Redirect-Preferred': 'false' };
        json =
          profile.payments?.startAuthorisationBody === 'operations-table'
            ? { psuData: { password: 'sandbox' } }
            : undefined;
        state = () => countOf(path, 'authorisationIds');
        break;
      case 'payments.authorisations.status':
      case 'payments.authorisations.update':
      case 'payments.cancellation-authorisations.status':
      case 'payments.cancellation-authorisations.update': {
        const a = o.id.startsWith('payments.cancellation-')
          ? await this.cancellationAuthorisation(c!)
          : await this.paymentAuthorisation(c!);
        onAuthorisation(a);
        break;
      }
      case 'payments.cancel': {
        const basePath = await this.payment(c!, 'payment-to-cancel');
        fill({ ...pay(c!), paymentId: idOf(basePath) });
        state = () => statusOf(`${basePath}/status`, 'transactionStatus');
        break;
      }
      case 'payments.cancellation-authorisations.start':
      case 'payments.cancellation-authorisations.list': {
        fill({ ...pay(c!), paymentId: idOf(await this.cancelled(c!)) });
        if (o.method === 'POST') {
          base = { ...psu, 'TPP-Redirect-Preferred': 'false' };
          state = () => countOf(path, 'cancellationIds');
        }
        break;
      }
      case 'signing-baskets.create':
        fill({});
        base = psu;
        json = { paymentIds: await this.basketPayments() };
        break;
      case 'signing-baskets.read':
      case 'signing-baskets.status':
        fill({ basketId: await this.basket() });
        break;
      case 'signing-baskets.authorisations.start': {
        const id = await this.basket();
        // A basket offers no list of its authorisations: only the refused answer (no authorisationId) shows.
        fill({ basketId: id });
        base = { ...psu, 'TPP-Redirect-Preferred': 'false' };
        break;
      }
      case 'signing-baskets.authorisations.update': {
        const a = await this.basketAuthorisation();
        path = a.href;
        base = psu;
        json = { authenticationMethodId: a.method };
        state = () => statusOf(a.href, 'scaStatus');
        break;
      }
      case 'signing-baskets.delete': {
        const id = await this.basket('basket-to-delete');
        fill({ basketId: id });
        state = async () => `${(await baskets.read(id)).status}`;
        break;
      }
      case 'direct-debit.create':
        fill({});
        base = directDebit.psuHeaders();
        json = directDebit.body();
        break;
      case 'direct-debit.get':
        fill({ paymentId: await this.directDebitPayment() });
        base = directDebit.psuHeaders();
        break;
      case 'direct-debit.confirm': {
        const paymentId = await this.directDebitPayment('dd-to-confirm');
        const consentId = await this.directDebitConsent();
        fill({});
        base = { ...directDebit.psuHeaders(), 'Consent-ID': consentId };
        json = { paymentIds: [paymentId] };
        state = async () =>
          String((await directDebit.get(paymentId)).json<{ transactionStatus?: string }>().transactionStatus);
        break;
      }
      default:
        throw new Error(`operation ${o.id}: no way to call it`);
    }
    return {
      op: o,
      label: `${o.name} (${o.method} ${o.template}${c ? `, ${label(c)}` : ''})`,
      state,
      call: async (opts: CallOptions = {}) => {
        const res = accountRead
          ? await accounts.read(accountRead, path, {
              query,
              // Through the account client: it reads with the PSU's token of the consent where the profile asks for one.
              headers: {
                ...opts.headers,
                ...(opts.noAuth && !opts.headers?.Authorization ? { Authorization: null } : {}),
              },
            })
          : await api.send({
              method: o.method,
              path,
              query,
              json,
              headers: { ...base, ...opts.headers },
              noAuth: opts.noAuth,
            });
        // What a call that should have been refused created is cleaned up as the areas' own creations are.
        const created = res.status >= 200 && res.status < 300 ? (res.body as Record<string, unknown>) : undefined;
        if (created && o.id === 'consents.create' && typeof created.consentId === 'string')
          consents.created.push(created.consentId);
        if (created && o.id === 'payments.initiate' && typeof created.paymentId === 'string')
          payments.created.push(`${path}/${created.paymentId}`);
        if (created && o.id === 'signing-baskets.create' && typeof created.basketId === 'string')
          baskets.created.push(created.basketId);
        return res;
      },
    };
  }
}

/**
 * The test of the header checks: every area's clients, and `operations`, the prerequisites of
 * every operation for this test. Merged tests lose the self-proof's declaration per case
 * (harness/proof.ts), so the merge is wrapped again.
 */
export const test = perProofEntry(mergeTests(directoryTest, accountsTest, basketsTest, directDebitTest)).extend<{
  operations: OperationWorld;
}>({
  operations: async ({ directory, consents, accounts, recurring, payments, baskets, directDebit }, use) => {
    await use(
      new OperationWorld({
        directory,
        consents,
        accounts,
        recurring: () => recurring(),
        payments,
        baskets,
        directDebit,
      }),
    );
  },
});

/** The claimed operations of a group (those a rule applies to), with why the others are left out. */
export function claimedOperations(
  profile: Profile,
  group: OperationGroup,
  filter: (o: Operation) => boolean = () => true,
): { claimed: Operation[]; skipped: string[] } {
  const claimed: Operation[] = [];
  const skipped: string[] = [];
  for (const o of OPERATIONS.filter((x) => x.group === group && filter(x))) {
    const why =
      unclaimedOperation(profile, o) ??
      (o.group === 'payments' && !paymentCombination(profile, o)
        ? 'not claimed: no claimed payment service and product for it'
        : undefined);
    if (why) skipped.push(`${o.name}: ${why}`);
    else claimed.push(o);
  }
  return { claimed, skipped };
}

/** A fresh uuid, for header values. */
export const uuid = () => randomUUID();

// ---------------------------------------------------------------------------------------------
// Header rules over every operation they govern
// ---------------------------------------------------------------------------------------------

export interface HeaderCase {
  /** What the case sends, e.g. 'X-BicFi "ESSESE1S"'. */
  what: string;
  call: CallOptions;
}

interface RuleOptions {
  requirement: string;
  /** The end of the test's title: "<group>: every operation <title>". */
  title: string;
  /** The operations the rule governs (default: every one). */
  applies?: (o: Operation) => boolean;
  cases: (o: Operation, target: Target) => HeaderCase[];
}

/** Binds every claimed operation of a group that the rule governs, skipping the test when none is claimed. */
async function boundOperations(
  operations: OperationWorld,
  target: Target,
  group: OperationGroup,
  applies: (o: Operation) => boolean,
): Promise<Bound[]> {
  const { claimed, skipped } = claimedOperations(target.profile, group, applies);
  for (const why of skipped) test.info().annotations.push({ type: 'not claimed', description: why });
  test.skip(claimed.length === 0, skipped.join('; '));
  const bound: Bound[] = [];
  for (const o of claimed) bound.push(await test.step(`prerequisites of ${o.name}`, () => operations.bind(o)));
  return bound;
}

/** The groups that have an operation the rule governs. */
const groupsOf = (applies: (o: Operation) => boolean) =>
  GROUPS.filter((g) => OPERATIONS.some((o) => o.group === g && applies(o)));

/** A test to declare, from the spec file (so that it is that file's test: its location names it). */
export interface RuleTest {
  title: string;
  details: ReturnType<typeof req>;
  body: (fixtures: { operations: OperationWorld; target: Target }) => Promise<void>;
}

/**
 * One test per operation group: every claimed operation of the group that the rule governs,
 * called with each case, is refused (a 4xx carrying no data: no id of a created resource), and a
 * state-changing one leaves its resource as it was. Each failure names the operation and the
 * case; the prerequisites are made once per test. Declare them in the spec file:
 * `for (const t of refusalTests({...})) test(t.title, t.details, t.body);`
 */
export function refusalTests(o: RuleOptions & { status?: number | number[] }): RuleTest[] {
  const applies = o.applies ?? (() => true);
  return groupsOf(applies).map((group) => ({
    title: `${group}: every operation ${o.title}`,
    details: req(o.requirement),
    body: async ({ operations, target }) => {
      for (const b of await boundOperations(operations, target, group, applies)) {
        const cases = o.cases(b.op, target);
        const before = await b.state?.();
        for (const c of cases) {
          const res = await b.call(c.call);
          await expect.soft(res, `${b.label}: ${c.what}`).toBeRefused(o.status);
        }
        if (b.state) {
          const tried = cases.map((c) => c.what).join('; ');
          expect
            .soft(await b.state(), because(`${b.label}: refused calls (${tried}) must change nothing`))
            .toBe(before);
        }
      }
    },
  }));
}

/**
 * One test per operation group: every claimed operation of the group that accepts the headers,
 * called with valid values of them, succeeds (2xx). Each failure names the operation.
 */
export function acceptanceTests(o: {
  requirement: string;
  title: string;
  applies: (o: Operation) => boolean;
  headers: (o: Operation, target: Target) => HeaderSpec;
}): RuleTest[] {
  return groupsOf(o.applies).map((group) => ({
    title: `${group}: every operation ${o.title}`,
    details: req(o.requirement),
    body: async ({ operations, target }) => {
      for (const b of await boundOperations(operations, target, group, o.applies)) {
        const headers = o.headers(b.op, target);
        const res = await b.call({ headers });
        await expect.soft(res, `${b.label} with ${Object.keys(headers).join(', ')}`).toSucceed();
      }
    },
  }));
}
