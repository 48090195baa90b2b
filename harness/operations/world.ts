import { aisConsent, type AccountsClient } from '../areas/accounts.js';
import type { ConsentsClient } from '../areas/consents.js';
import type { DirectDebitClient } from '../areas/direct-debit.js';
import type { City, Country, DirectoryClient } from '../areas/directory.js';
import { label, type Combination, type PaymentsClient } from '../areas/payments.js';
import type { BasketsClient } from '../areas/signing-baskets.js';
import type { Profile } from '../config/profile.js';
import { block, requireSuccess } from '../http/broken.js';
import type { ApiClient } from '../http/client.js';
import type { ApiResponse } from '../http/response.js';
import { offeredMethodIds } from '../sca/driver.js';
import { paymentCombination } from './claims.js';
import type { Operation, Prepared, World } from './types.js';
import { prepKit, type Bound, type CallOptions } from './calls.js';

export type { Bound, CallOptions } from './calls.js';

interface Clients {
  directory: DirectoryClient;
  consents: ConsentsClient;
  accounts: AccountsClient;
  recurring: () => Promise<string>;
  payments: PaymentsClient;
  baskets: BasketsClient;
  directDebit: DirectDebitClient;
}

/** A prerequisite's answer must be a success, or the test is blocked by `by` (the requirement judging that step). */
const ok = (res: ApiResponse, what: string, by: string): ApiResponse => requireSuccess(res, by, what);

/**
 * The prerequisites of every operation, made on first need and shared by every call of the test:
 * a consent and its authorisation, an authorised account consent with an account and a
 * transaction, payments and their authorisations, a cancellation, baskets, direct debit payments
 * and consent. A destructive operation (delete, cancel) gets a resource of its own.
 */
export class OperationWorld implements World {
  private readonly memo = new Map<string, Promise<unknown>>();

  constructor(readonly c: Clients) {}

  /**
   * A world of its own for a state-changing call (the generated phase makes one per case): nothing
   * made yet but what no operation uses up, shared with this one (the directory's ids, the worker's
   * authorised account consent, the direct debit consent payments are confirmed under).
   */
  fork(): OperationWorld {
    const w = new OperationWorld(this.c);
    w.parent = this;
    return w;
  }

  private parent?: OperationWorld;

  /** The prerequisites no operation uses up: a fork makes them once, in the world it was forked from. */
  private static readonly LASTING = new Set(['directory', 'account', 'dd-consent']);

  get profile(): Profile {
    return this.c.consents.api.target.profile;
  }

  private once<T>(key: string, make: () => Promise<T>): Promise<T> {
    if (this.parent && OperationWorld.LASTING.has(key)) return this.parent.once(key, make);
    if (!this.memo.has(key)) this.memo.set(key, make());
    return this.memo.get(key) as Promise<T>;
  }

  /** The decoupled method of the device (else the first offered); none offered blocks the call by `by`. */
  private decoupledMethod(created: ApiResponse, by: string): string {
    const offered = offeredMethodIds(created.body);
    const method = ['mbid_same_device', 'mbid'].find((m) => offered.includes(m)) ?? offered[0];
    if (!method) block(by, 'an SCA method offered', `scaMethods offers no method: ${created.describe()}`);
    return method;
  }

  directoryIds(): Promise<{ bicFi: string; cityId: string; isoCountryCode: string }> {
    return this.once('directory', async () => {
      const d = this.c.directory;
      const bank = ok(await d.listBanks(), 'List banks', 'directory.aspsps.list-shape').json<{
        aspsps: { bicFi: string }[];
      }>().aspsps[0];
      const city = ok(await d.listCities(), 'List cities', 'directory.cities.list-shape').json<{ cities: City[] }>()
        .cities[0];
      const country = ok(await d.listCountries(), 'List countries', 'directory.countries.list-shape').json<{
        countries: Country[];
      }>().countries[0];
      return { bicFi: bank.bicFi, cityId: city.cityId, isoCountryCode: country.isoCountryCode };
    });
  }

  /** The body of a one-off consent (aisConsent), as consent() creates one: create consent's valid body. */
  oneOffConsent() {
    return aisConsent();
  }

  /** A one-off consent, not authorised (one-off: authorising it ends no recurring consent of the PSU). */
  consent(key = 'consent'): Promise<string> {
    return this.once(key, async () => {
      const res = ok(
        await this.c.consents.create({ body: aisConsent() }),
        'create consent',
        'consents.create.response',
      );
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
      const by =
        sub === 'cancellation-authorisations'
          ? 'payments.cancel.authorisations'
          : driver === this.c.consents.sca
            ? 'authorisations.create.response'
            : driver === this.c.baskets.sca
              ? 'signing-baskets.authorisation.start'
              : 'payments.authorisations.create';
      const res = ok(await driver.create(base, sub, headers), `create ${sub} of ${base}`, by);
      const id = res.json<{ authorisationId: string }>().authorisationId;
      return {
        href: `${base}/${sub}/${id}`,
        method: this.decoupledMethod(res, by),
        offered: offeredMethodIds(res.body),
      };
    });
  }

  /** An authorisation on a consent of its own (as for payments: an SCA ended at once leaves the others untouched). */
  async consentAuthorisation() {
    return this.authorisation(
      'consent-authorisation',
      this.c.consents.basePath(await this.consent('consent-for-authorisation')),
      'authorisations',
    );
  }

  /**
   * The worker's authorised account consent, an account it lists and a transaction of that account.
   * A transaction list that fails leaves no transactionId and says why (`noTransaction`): only the
   * reads of a transaction need one, the account's other reads go on.
   */
  accountRead(): Promise<{ consentId: string; accountId: string; transactionId?: string; noTransaction?: string }> {
    return this.once('account', async () => {
      const consentId = await this.c.recurring();
      const [account] = await this.c.accounts.accountsOf(consentId);
      // A consent that gives no account (a bank-offered consent whose PSU picked none) leaves
      // nothing to read: the account operations' checks are blocked, not crashed.
      if (!account?.resourceId)
        block(
          'accounts.list.shape',
          "an account under the test's consent",
          'List accounts gave no account with a resourceId',
        );
      const res = await this.c.accounts.transactions(consentId, account.resourceId!, {
        bookingStatus: 'booked',
        dateFrom: '2000-01-01',
      });
      if (res.status < 200 || res.status >= 300)
        return {
          consentId,
          accountId: account.resourceId!,
          noTransaction: `Transaction list: expected a 2xx; got ${res.describe()}`,
        };
      const list = res.json<{ transactions?: { booked?: { transactionId?: string }[] } }>();
      const transactionId = list.transactions?.booked?.find((t) => t.transactionId)?.transactionId;
      return {
        consentId,
        accountId: account.resourceId!,
        transactionId,
        ...(transactionId ? {} : { noTransaction: 'the account lists no booked transaction with a transactionId' }),
      };
    });
  }

  /** A payment of `c`, initiated, not authorised; returns its base path. */
  payment(c: Combination, key = 'payment'): Promise<string> {
    return this.once(`${key}:${label(c)}`, async () => (await this.c.payments.initiated(c)).basePath);
  }

  /** An authorisation on a payment of its own: a bank that finalises at once leaves no other operation a finished payment. */
  async paymentAuthorisation(c: Combination) {
    return this.authorisation(
      `payment-authorisation:${label(c)}`,
      await this.payment(c, 'payment-for-authorisation'),
      'authorisations',
    );
  }

  /** A payment of `c` whose cancellation was asked for (DELETE), so that its cancellation authorisations exist. */
  cancelled(c: Combination): Promise<string> {
    return this.once(`cancelled:${label(c)}`, async () => {
      const basePath = await this.payment(c, 'to-cancel');
      ok(await this.c.payments.cancel(basePath), `cancel ${label(c)} payment`, 'payments.cancel.response');
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
      const res = ok(
        await this.c.baskets.create(await this.basketPayments()),
        'create signing basket',
        'signing-baskets.create.response',
      );
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

  /**
   * Binds an operation to its prerequisites (made now, once per test, as its row's `prepare` asks);
   * a payment operation on `combination`, else on the one claims.ts gives it.
   */
  async bind(o: Operation, combination?: Combination): Promise<Bound> {
    const { consents, accounts, payments, baskets, directDebit } = this.c;
    const api = {
      directory: this.c.directory.api,
      consents: consents.api,
      accounts: accounts.api,
      payments: payments.api,
      'signing-baskets': baskets.api,
      'direct-debit': directDebit.api,
    }[o.group];
    const c = o.group === 'payments' ? (combination ?? paymentCombination(this.c.consents.api.target, o)) : undefined;
    const kit = prepKit({ o, w: this, c, api, psu: payments.psuHeaders() });
    return this.bound(o, c, api, await o.prepare(kit));
  }

  /** The operation made callable: through the account client for an account read, else through its group's client. */
  private bound(o: Operation, c: Combination | undefined, api: ApiClient, p: Prepared): Bound {
    const { accounts } = this.c;
    const { path, base = {}, json, query, accountRead, state, offered } = p;
    return {
      op: o,
      label: `${o.name} (${o.method} ${o.template}${c ? `, ${label(c)}` : ''})`,
      state,
      offered,
      body: json,
      call: async (opts: CallOptions = {}) => {
        const at = opts.path ? opts.path(path) : path;
        const res = accountRead
          ? await accounts.read(accountRead, at, {
              query: opts.query ?? query,
              sign: opts.sign,
              allow5xx: opts.allow5xx,
              // Through the account client: it reads with the PSU's token of the consent where the profile asks for one.
              headers: {
                ...opts.headers,
                ...(opts.noAuth && !opts.headers?.Authorization ? { Authorization: null } : {}),
              },
            })
          : await api.send({
              method: o.method,
              path: at,
              query: opts.query ?? query,
              json: opts.raw !== undefined ? undefined : 'json' in opts ? opts.json : json,
              raw: opts.raw,
              headers: { ...base, ...opts.headers },
              noAuth: opts.noAuth,
              sign: opts.sign,
              allow5xx: opts.allow5xx,
            });
        // What a call that should have been refused created is cleaned up as the areas' own creations are.
        const created = res.status >= 200 && res.status < 300 ? (res.body as Record<string, unknown>) : undefined;
        if (created) p.created?.(created);
        return res;
      },
    };
  }
}
