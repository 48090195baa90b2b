import { isoDate } from '../dates.js';
import type { SchemaType } from '../../schemas/index.js';
import type { ApiClient, HeaderSpec, QueryValue } from '../http/client.js';
import type { ApiResponse } from '../http/response.js';
import { consentRequest, test as base, type ConsentRequest, type ConsentsClient } from './consents.js';

export { because, consentRequest, expect, req } from './consents.js';
export type { AccountReference, ConsentRequest, ConsentsClient } from './consents.js';

// The bodies, as their schemas (schemas/accounts) state them.
export type Amount = SchemaType<'accounts/amount'>;
export type Balance = SchemaType<'accounts/balance'>;
export type Account = SchemaType<'accounts/account'>;
export type Transaction = SchemaType<'accounts/transaction'>;
export type TransactionList = SchemaType<'accounts/transaction-list'>;

export interface ReadOptions {
  query?: Record<string, QueryValue>;
  headers?: HeaderSpec;
  /** Send PSU-IP-Address (the PSU actively asks; such reads are not counted against frequencyPerDay). Default true. */
  psuPresent?: boolean;
  /** Token scope of this read (default accountinformation). */
  scope?: string;
}

/**
 * A one-off account-information consent body (recurringIndicator false, frequencyPerDay 1):
 * one-off consents are not expired by the recurring consents other tests of the same PSU
 * authorise. Access with empty arrays asks for every account the bank offers.
 */
export function aisConsent(overrides: Partial<ConsentRequest> = {}): ConsentRequest {
  return consentRequest({ recurringIndicator: false, frequencyPerDay: 1, validUntil: isoDate(7), ...overrides });
}

/** Account information (endpoint section C) at the profile's accounts path, scope accountinformation. */
export class AccountsClient {
  constructor(readonly api: ApiClient) {}

  get path(): string {
    return this.api.target.profile.paths.accounts ?? 'psd2/accountinformation/v1/accounts';
  }

  /** The profile claims delta access (entryReferenceFrom, deltaList). */
  get deltaAccess(): boolean {
    return this.api.target.profile.accounts?.deltaAccess === true;
  }

  private headers(consentId: string | null, o: ReadOptions): HeaderSpec {
    return {
      'Consent-ID': consentId,
      ...(o.psuPresent === false ? {} : { 'PSU-IP-Address': this.api.target.psuIpAddress }),
      ...o.headers,
    };
  }

  /** GET a path (or a `_links` href) under the consent. */
  read(consentId: string | null, path: string, o: ReadOptions = {}): Promise<ApiResponse> {
    return this.api.get(path, { query: o.query, headers: this.headers(consentId, o), scope: o.scope });
  }

  list(consentId: string | null, o: ReadOptions = {}) {
    return this.read(consentId, this.path, o);
  }
  detail(consentId: string | null, accountId: string, o: ReadOptions = {}) {
    return this.read(consentId, `${this.path}/${encodeURIComponent(accountId)}`, o);
  }
  balances(consentId: string | null, accountId: string, o: ReadOptions = {}) {
    return this.read(consentId, `${this.path}/${encodeURIComponent(accountId)}/balances`, o);
  }
  transactions(consentId: string | null, accountId: string, query: Record<string, QueryValue>, o: ReadOptions = {}) {
    return this.read(consentId, `${this.path}/${encodeURIComponent(accountId)}/transactions`, {
      ...o,
      query: { ...query, ...o.query },
    });
  }
  transaction(consentId: string | null, accountId: string, transactionId: string, o: ReadOptions = {}) {
    return this.read(
      consentId,
      `${this.path}/${encodeURIComponent(accountId)}/transactions/${encodeURIComponent(transactionId)}`,
      o,
    );
  }

  /** The accounts listed under the consent (a list that does not answer 200 stops the test). */
  async accountsOf(consentId: string): Promise<Account[]> {
    const res = await this.list(consentId);
    if (res.status !== 200)
      throw new Error(`List accounts under the test's consent: expected 200; got ${res.describe()}`);
    return res.json<{ accounts: Account[] }>().accounts;
  }

  /** The transaction list, which must answer 200 for the test to go on. */
  async transactionsOf(
    consentId: string,
    accountId: string,
    query: Record<string, QueryValue>,
  ): Promise<TransactionList> {
    const res = await this.transactions(consentId, accountId, query);
    if (res.status !== 200)
      throw new Error(`Transaction list ${JSON.stringify(query)}: expected 200; got ${res.describe()}`);
    return res.json<TransactionList>();
  }
}

/** An authorised consent of the test: its id and the accounts it lists. */
export interface AccountConsent {
  consentId: string;
  accounts: Account[];
}

/** Creates a consent and drives its SCA; an SCA that does not finalise stops the test. */
export async function authorisedConsent(consents: ConsentsClient, body: ConsentRequest): Promise<string> {
  const { consentId, sca } = await consents.createAuthorised({ body });
  if (sca.scaStatus !== 'finalised') throw new Error(`SCA of the test's consent ended ${sca.scaStatus}, not finalised`);
  return consentId;
}

/**
 * Adds `accounts` (the account client) and `consent`: an authorised one-off consent with
 * balances and transactions on every account the bank offers, with the accounts it lists.
 * The consents client deletes it when the test ends.
 */
export const test = base.extend<{ accounts: AccountsClient; consent: AccountConsent }>({
  accounts: async ({ api }, use) => {
    await use(new AccountsClient(api.with({ scope: 'accountinformation', bicFi: true })));
  },
  consent: async ({ consents, accounts }, use) => {
    const consentId = await authorisedConsent(consents, aisConsent());
    await use({ consentId, accounts: await accounts.accountsOf(consentId) });
  },
});

/** The first account of a list that has an iban (consents name accounts by iban). */
export function withIban(list: Account[], count = 1): Account[] {
  const found = list.filter((a) => typeof a.iban === 'string' && a.iban.length > 0);
  if (found.length < count)
    throw new Error(`the PSU needs at least ${count} account(s) with an iban; List accounts gave ${found.length}`);
  return found.slice(0, count);
}
