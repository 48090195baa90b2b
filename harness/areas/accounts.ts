import { isoDate } from '../values/dates.js';
import type { SchemaType } from '../../schemas/index.js';
import type { Target } from '../config/target.js';
import { block } from '../http/broken.js';
import type { ApiClient, HeaderSpec, QueryValue } from '../http/client.js';
import type { ApiResponse } from '../http/response.js';
import type { SignOptions } from '../http/signing.js';
import { accountReadsToken, psuTokenByRedirect } from '../auth/tokens.js';
import { boxed, notJudged } from '../test.js';
import { consentRequest, test as base, type ConsentRequest, type ConsentsClient } from './consents.js';

export { because, consentRequest, expect, req } from './consents.js';
export type { AccountReference, ConsentRequest, ConsentsClient } from './consents.js';

// The bodies, as their schemas (schemas/accounts) state them.
export type Amount = SchemaType<'accounts/amount'>;
export type Balance = SchemaType<'accounts/balance'>;
export type Account = SchemaType<'accounts/account'>;
export type Transaction = SchemaType<'accounts/transaction'>;
/** A transaction list answer: the lists (`transactions`), or a `_links.download` link instead of them. */
export type TransactionAnswer = SchemaType<'accounts/transaction-list'>;
/** A transaction list answered with its entries. */
export type TransactionList = TransactionAnswer & { transactions: NonNullable<TransactionAnswer['transactions']> };

/**
 * The download link of a transaction list answered with `_links.download` instead of the
 * `booked`/`pending` lists (a list too large to return; `download` is a link name the specification
 * lists), or undefined when the answer holds the lists.
 */
export function downloadLink(body: unknown): string | undefined {
  const b = body as { transactions?: unknown; _links?: { download?: { href?: unknown } } } | undefined;
  if (!b || typeof b !== 'object' || b.transactions !== undefined) return undefined;
  const href = b._links?.download?.href;
  return typeof href === 'string' ? href : undefined;
}

/** At most this many pages of one list are read by following `_links.next`; a longer list is judged on them, with a note. */
export const MAX_PAGES = 25;

/**
 * The next page of a list answer (`_links.next`, a link name the specification lists): where
 * Berlin Group puts it in a transaction list, under `transactions._links`, or at the answer's top.
 */
export function nextLink(body: unknown): string | undefined {
  const b = body as { transactions?: { _links?: unknown }; _links?: unknown } | undefined;
  if (!b || typeof b !== 'object') return undefined;
  for (const links of [b.transactions?._links, b._links]) {
    const href = (links as { next?: { href?: unknown } } | undefined)?.next?.href;
    if (typeof href === 'string' && href) return href;
  }
  return undefined;
}

/**
 * One transaction list from its pages: the first page's answer with the booked and pending
 * entries of every page in order (an array present on any page is present), and no `next` link.
 */
export function mergePages(pages: TransactionAnswer[]): TransactionAnswer {
  const [first] = pages;
  if (pages.length === 1 || !first.transactions) return first;
  const all = (key: 'booked' | 'pending') =>
    pages.some((p) => Array.isArray(p.transactions?.[key]))
      ? { [key]: pages.flatMap((p) => p.transactions?.[key] ?? []) }
      : {};
  const { next: _next, ...links } = (first.transactions._links ?? {}) as Record<string, unknown>;
  const top = first._links
    ? { _links: Object.fromEntries(Object.entries(first._links).filter(([k]) => k !== 'next')) }
    : {};
  return {
    ...first,
    ...top,
    transactions: { ...first.transactions, ...all('booked'), ...all('pending'), _links: links },
  } as TransactionAnswer;
}

export interface ReadOptions {
  query?: Record<string, QueryValue>;
  headers?: HeaderSpec;
  /** Send PSU-IP-Address (the PSU actively asks; such reads are not counted against frequencyPerDay). Default true. */
  psuPresent?: boolean;
  /** Token scope of this read (default accountinformation). */
  scope?: string;
  /** Sign the read (Authentication 6), as the client's `sign` option says. */
  sign?: boolean | SignOptions;
  /** A 5xx is an answer to judge (the generated phase), not a broken target. */
  allow5xx?: boolean;
}

/**
 * A one-off account-information consent body (recurringIndicator false, frequencyPerDay 1): one
 * access to the account data ("false for one access"), however the bank counts it (reference
 * facts: once per consent, or once per read endpoint and account). A check reads under it once,
 * or not at all. Access with empty arrays asks for every account the bank offers.
 */
export function aisConsent(overrides: Partial<ConsentRequest> = {}): ConsentRequest {
  return consentRequest({ recurringIndicator: false, frequencyPerDay: 1, validUntil: isoDate(7), ...overrides });
}

/** A recurring account-information consent body (frequencyPerDay 4): for checks that read several times. */
export function recurringConsent(overrides: Partial<ConsentRequest> = {}): ConsentRequest {
  return consentRequest({ recurringIndicator: true, frequencyPerDay: 4, validUntil: isoDate(7), ...overrides });
}

/**
 * PSU-ID of the PSU whose recurring consents the checks of worker `parallelIndex` read: a new
 * recurring consent ends the PSU's former one, so checks running at once must not share a PSU
 * (profile accounts.readerPsuIds; absent: the target's PSU-ID, safe with one worker only).
 */
export function readerPsu(target: Target, parallelIndex: number): HeaderSpec {
  const pool = target.profile.accounts?.readerPsuIds;
  if (!pool) return {};
  const id = pool[parallelIndex];
  if (!id)
    throw new Error(
      `the profile's accounts.readerPsuIds names ${pool.length} PSU(s), one per parallel worker, and this is worker ${parallelIndex + 1}: run with at most ${pool.length} workers (OBG_WORKERS) or name more PSUs`,
    );
  return { 'PSU-ID': id };
}

/** Account information (endpoint section C) at the profile's accounts path, scope accountinformation. */
export class AccountsClient {
  /** The PSU's token of each consent authorised by `authorised` where the profile claims tokens.accountReads psu. */
  readonly psuTokens = new Map<string, string>();

  constructor(readonly api: ApiClient) {}

  /** The profile claims that account reads need the PSU's token of the consent (tokens.accountReads psu). */
  get psuTokenReads(): boolean {
    return accountReadsToken(this.api.target) === 'psu';
  }

  /**
   * Creates a consent and authorises it: decoupled, or where reads need the PSU's token in the
   * redirect flow with the code exchanged for that token (kept for the consent's reads). An SCA
   * that does not finalise stops the test.
   */
  async authorised(consents: ConsentsClient, body: ConsentRequest, headers: HeaderSpec = {}): Promise<string> {
    if (!this.psuTokenReads)
      return consents.createValid({ body, headers, sca: { headers: { ...consents.psuHeaders(), ...headers } } });
    const res = await consents.create({ body, headers });
    const consentId = res.json<{ consentId?: string }>().consentId;
    if (res.status < 200 || res.status >= 300 || !consentId)
      block(
        'consents.create.response',
        "create the test's consent",
        `expected a 2xx with a consentId; got ${res.describe()}`,
      );
    const { token } = await psuTokenByRedirect(consents.sca, consents.api, {
      resourceBasePath: consents.basePath(consentId),
      resource: 'Consent',
      resourceId: consentId,
      scope: `accountinformation ${this.api.target.profile.psuContext}`,
      headers: { ...consents.psuHeaders(), ...headers },
    });
    this.psuTokens.set(consentId, token);
    return consentId;
  }

  get path(): string {
    return this.api.target.profile.paths.accounts;
  }

  /** The profile claims delta access (entryReferenceFrom, deltaList). */
  get deltaAccess(): boolean {
    return this.api.target.profile.accounts.deltaAccess;
  }

  private headers(consentId: string | null, o: ReadOptions): HeaderSpec {
    return {
      'Consent-ID': consentId,
      ...(o.psuPresent === false ? {} : { 'PSU-IP-Address': this.api.target.psuIpAddress }),
      ...o.headers,
    };
  }

  /**
   * GET a path (or a `_links` href) under the consent: with the PSU's token of the consent when
   * there is one and no other scope is asked for, else with the application token.
   */
  read(consentId: string | null, path: string, o: ReadOptions = {}): Promise<ApiResponse> {
    const psuToken = consentId && !o.scope ? this.psuTokens.get(consentId) : undefined;
    if (psuToken)
      return this.api.get(path, {
        query: o.query,
        noAuth: true,
        headers: { Authorization: `Bearer ${psuToken}`, ...this.headers(consentId, o) },
        sign: o.sign,
        allow5xx: o.allow5xx,
      });
    return this.api.get(path, {
      query: o.query,
      headers: this.headers(consentId, o),
      scope: o.scope,
      sign: o.sign,
      allow5xx: o.allow5xx,
    });
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

  /**
   * Every page of a transaction list: the first answer, then each page its `_links.next` names,
   * read under the same consent, to the last (at most MAX_PAGES; a longer list, or a `next` that
   * names a page already read, stops there with a note on the test). A page that does not answer
   * a 2xx ends the list: it is the last answer, for the caller to judge.
   */
  async transactionPages(
    consentId: string | null,
    accountId: string,
    query: Record<string, QueryValue>,
    o: ReadOptions = {},
  ): Promise<ApiResponse[]> {
    const pages = [await this.transactions(consentId, accountId, query, o)];
    const read = new Set<string>();
    for (;;) {
      const last = pages[pages.length - 1];
      if (last.status < 200 || last.status >= 300 || !last.isJson) return pages;
      const next = nextLink(last.body);
      if (next === undefined) return pages;
      const stop = read.has(next)
        ? `its _links.next (${next}) names a page already read`
        : pages.length >= MAX_PAGES
          ? `it has more than ${MAX_PAGES} pages (_links.next): judged on its first ${MAX_PAGES}`
          : undefined;
      if (stop) {
        base.info().annotations.push({
          type: 'note',
          description: `the transaction list of account ${accountId} (${JSON.stringify(query)}) was not read to its end: ${stop}`,
        });
        return pages;
      }
      read.add(next);
      pages.push(await this.read(consentId, next, { ...o, query: undefined }));
    }
  }

  /** The accounts listed under the consent (a list that does not answer 200 stops the test). */
  async accountsOf(consentId: string): Promise<Account[]> {
    const res = await this.list(consentId);
    if (res.status < 200 || res.status >= 300)
      block('accounts.list.shape', "List accounts under the test's consent", `expected a 2xx; got ${res.describe()}`);
    return res.json<{ accounts: Account[] }>().accounts;
  }

  /**
   * The transaction list, every page of it (transactionPages) merged into one, each of which must
   * answer a 2xx for the test to go on. A list answered with a
   * download link instead of its entries leaves nothing to judge here: the test is skipped with
   * that reason (the answer's shape is accounts.transactions.shape's).
   */
  async transactionsOf(
    consentId: string,
    accountId: string,
    query: Record<string, QueryValue>,
  ): Promise<TransactionList> {
    const pages = await this.transactionPages(consentId, accountId, query);
    pages.forEach((res, i) => {
      if (res.status < 200 || res.status >= 300)
        block(
          'accounts.transactions.shape',
          `Transaction list ${JSON.stringify(query)}${i ? `, page ${i + 1} (_links.next)` : ''}`,
          `expected a 2xx; got ${res.describe()}`,
        );
    });
    const download = downloadLink(pages[0].json());
    base.skip(
      download !== undefined,
      `not judged: the transaction list of account ${accountId} (${JSON.stringify(query)}) is answered with a download link (_links.download ${download}) instead of booked and pending entries, which the specification allows; this check needs the entries`,
    );
    return mergePages(pages.map((p) => p.json<TransactionAnswer>())) as TransactionList;
  }
}

/** An authorised consent of the test: its id and the accounts it lists. */
export interface AccountConsent {
  consentId: string;
  accounts: Account[];
}

/**
 * Adds `accounts` (the account client); `recurring`, which creates and authorises a recurring
 * consent of the worker's reader PSU (overrides on the body, e.g. its access), ending that PSU's
 * former one; and `consent`: such a consent with balances and transactions on every account the
 * bank offers, with the accounts it lists, for checks that read several times under one consent
 * (a one-off consent is for one access). The consents client deletes them when the test ends.
 */
export const test = base.extend<{
  accounts: AccountsClient;
  recurring: (overrides?: Partial<ConsentRequest>) => Promise<string>;
  consent: AccountConsent;
}>({
  accounts: boxed(async ({ api }, use) => {
    await use(new AccountsClient(api.with({ scope: 'accountinformation', bicFi: true })));
  }),
  recurring: boxed(async ({ consents, accounts }, use, testInfo) => {
    const headers = readerPsu(consents.api.target, testInfo.parallelIndex);
    await use((overrides = {}) => accounts.authorised(consents, recurringConsent(overrides), headers));
  }),
  consent: boxed(async ({ recurring, accounts }, use) => {
    const consentId = await recurring();
    await use({ consentId, accounts: await accounts.accountsOf(consentId) });
  }),
});

/**
 * The accounts of the test's consent, for a check that judges each one: a consent that lists none
 * leaves the check not judged, saying so, never passed on nothing.
 */
export function eachAccount(consent: AccountConsent): Account[] {
  if (consent.accounts.length === 0)
    notJudged('List accounts under the consent of the test answered no account: there is no account to read');
  return consent.accounts;
}

/** The first account of a list that has an iban (consents name accounts by iban). */
export function withIban(list: Account[], count = 1): Account[] {
  const found = list.filter((a) => typeof a.iban === 'string' && a.iban.length > 0);
  if (found.length < count)
    block(
      'accounts.list.shape',
      `${count} account(s) with an iban`,
      `the PSU needs at least ${count}; List accounts gave ${found.length}`,
    );
  return found.slice(0, count);
}
