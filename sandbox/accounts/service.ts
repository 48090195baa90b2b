import { today } from '../../spec/iso8601.js';
import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { usable, type AccountReference, type Consent } from '../consents/store.js';
import { psuBank, type PsuBank, type SeedAccount, type SeedTransaction } from '../seed/accounts.js';
import { BoundedMap } from '../store.js';

export type AisService = 'accounts' | 'balances' | 'transactions';

/** The read endpoints of section C, as a one-off consent counts its one access on them. */
export type AisEndpoint = 'list' | 'detail' | 'balances' | 'transactions' | 'transaction-detail';

/**
 * How a one-off consent (recurringIndicator false, frequencyPerDay 1) counts its "one access"
 * (reference facts, Ownership, one-off access and repeated operations):
 * - `first-read` (the sandbox's): the first read served ends the consent; later reads get 401
 *   CONSENT_EXPIRED;
 * - `per-resource` (xs2a's): each read endpoint once per account; a repeated read gets 429
 *   ACCESS_EXCEEDED.
 */
export type OneOffCounting = 'first-read' | 'per-resource';

/** A transaction list query after validation (endpoint section C, transaction list query). */
export interface TransactionQuery {
  bookingStatus: 'booked' | 'pending' | 'both';
  dateFrom?: string;
  dateTo: string;
  entryReferenceFrom?: string;
  deltaList: boolean;
}

const normIban = (s: string | undefined) => (s ?? '').replace(/\s+/g, '').toUpperCase();

/**
 * Account information behind a consent. Access semantics (consent `access`):
 * - `balances` / `transactions` with an empty array: every account of the PSU for that service
 *   (a bank-offered consent); with references: only the accounts they name (by iban, or by
 *   maskedPan/pan for card accounts; a reference's currency, when given, must match too).
 * - `accounts`: list and detail access to the accounts it covers (same empty-array rule).
 * - An account is listed when any of the three covers it; `allPsd2: "allAccounts"` covers all.
 * Account ids are tokenised per consent (an HMAC of the consent id and the account), so an id is
 * stable for the consent's life and means nothing under another consent.
 */
export class AccountService {
  private readonly secret = `accounts-${process.pid}-${Date.now()}`;
  /** Reads without the PSU present, by consent|account|service|day (frequencyPerDay). */
  readonly usage: BoundedMap<string, number>;
  /** The last entryReference reported by a deltaList read, by consent|account. */
  readonly deltaMarks: BoundedMap<string, string>;
  /** How one-off consents count their one access (a variant switches it). */
  oneOff: OneOffCounting = 'first-read';
  /** Reads served under one-off consents, by consent|account|endpoint (`per-resource`). */
  readonly oneOffReads: BoundedMap<string, true>;

  constructor(max: number) {
    this.usage = new BoundedMap(max);
    this.deltaMarks = new BoundedMap(max);
    this.oneOffReads = new BoundedMap(max);
  }

  today(): string {
    return today();
  }

  /** Whether the consent may be read under: ok, expired, or invalid (not valid: received, rejected, terminated…). */
  state(consent: Consent): 'ok' | 'expired' | 'invalid' {
    return usable(consent, this.today());
  }

  bankOf(consent: Consent): PsuBank {
    return psuBank(consent.psuId, consent.context);
  }

  idOf(consent: Consent, account: SeedAccount): string {
    return createHmac('sha256', this.secret).update(`${consent.consentId}|${account.key}`).digest('hex').slice(0, 24);
  }

  matches(ref: AccountReference, account: SeedAccount): boolean {
    if (ref.iban !== undefined)
      return normIban(ref.iban) === account.iban && (!ref.currency || ref.currency === account.currency);
    return false; // the sandbox holds no card accounts: maskedPan / pan name none of them
  }

  covers(list: AccountReference[] | undefined, account: SeedAccount): boolean {
    if (!Array.isArray(list)) return false;
    return list.length === 0 || list.some((ref) => this.matches(ref, account));
  }

  /** Whether the consent gives `service` on the account (accounts = list and detail). */
  allows(consent: Consent, account: SeedAccount, service: AisService): boolean {
    const a = consent.access;
    if (a.allPsd2 === 'allAccounts') return true;
    if (service === 'accounts')
      return (
        this.covers(a.accounts, account) ||
        this.covers(a.balances, account) ||
        this.covers(a.transactions, account) ||
        a.availableAccounts === 'allAccounts'
      );
    return this.covers(a[service], account);
  }

  /** The accounts the consent lists, with their ids under it. */
  visible(consent: Consent): { id: string; account: SeedAccount }[] {
    return this.bankOf(consent)
      .accounts.filter((acc) => this.allows(consent, acc, 'accounts'))
      .map((account) => ({ id: this.idOf(consent, account), account }));
  }

  /** The account behind an id under the consent, if the consent lists it. */
  resolve(consent: Consent, accountId: string): SeedAccount | undefined {
    return this.visible(consent).find((v) => v.id === accountId)?.account;
  }

  /** The account's entries the query selects (booked by booking date, pending by entry date). */
  select(
    consent: Consent,
    account: SeedAccount,
    q: TransactionQuery,
  ): { booked: SeedTransaction[]; pending: SeedTransaction[] } {
    const all = this.bankOf(consent).transactions(account.key);
    let chosen: SeedTransaction[];
    if (q.entryReferenceFrom !== undefined) chosen = all.filter((t) => t.entryReference > q.entryReferenceFrom!);
    else if (q.deltaList) {
      const mark = this.deltaMarks.get(`${consent.consentId}|${account.key}`);
      chosen =
        mark === undefined
          ? all.filter((t) => !q.dateFrom || t.entryDate >= q.dateFrom)
          : all.filter((t) => t.entryReference > mark);
    } else chosen = all.filter((t) => t.entryDate >= q.dateFrom! && t.entryDate <= q.dateTo);
    const booked = q.bookingStatus === 'pending' ? [] : chosen.filter((t) => t.status === 'booked');
    const pending = q.bookingStatus === 'booked' ? [] : chosen.filter((t) => t.status === 'pending');
    if (q.deltaList) {
      const last = [...booked, ...pending]
        .map((t) => t.entryReference)
        .sort()
        .pop();
      const key = `${consent.consentId}|${account.key}`;
      if (last !== undefined && (this.deltaMarks.get(key) ?? '') < last) this.deltaMarks.set(key, last);
    }
    return { booked, pending };
  }

  findTransaction(consent: Consent, account: SeedAccount, transactionId: string): SeedTransaction | undefined {
    return this.bankOf(consent)
      .transactions(account.key)
      .find((t) => t.transactionId === transactionId);
  }

  /**
   * frequencyPerDay (BG): reads without the PSU present are counted per consent, account,
   * service and day. Returns false when this read would go beyond the consent's frequency.
   */
  admit(consent: Consent, accountKey: string, service: AisService | 'list'): boolean {
    const key = `${consent.consentId}|${accountKey}|${service}|${this.today()}`;
    const used = this.usage.get(key) ?? 0;
    if (used >= consent.frequencyPerDay) return false;
    this.usage.set(key, used + 1);
    return true;
  }

  /**
   * Whether a one-off consent still allows this read (`accountKey` '*' for the list), before it
   * is served: false when it would be a second access to the same endpoint and account.
   */
  oneOffAllows(consent: Consent, accountKey: string, endpoint: AisEndpoint): boolean {
    if (consent.recurringIndicator || this.oneOff !== 'per-resource') return true;
    return !this.oneOffReads.get(`${consent.consentId}|${accountKey}|${endpoint}`);
  }

  /** A read served under a one-off consent spends its access: the endpoint and account, or the whole consent. */
  spendOneOff(consent: Consent, accountKey: string, endpoint: AisEndpoint): void {
    if (consent.recurringIndicator) return;
    if (this.oneOff === 'per-resource') this.oneOffReads.set(`${consent.consentId}|${accountKey}|${endpoint}`, true);
    else consent.status = 'expired';
  }
}

const services = new WeakMap<FastifyInstance, AccountService>();

/** The app's account service, made on first use (faults wrap it at install, routes use it later). */
export function accountsOf(app: FastifyInstance): AccountService {
  let s = services.get(app);
  if (!s) {
    s = new AccountService(app.sandbox.options.maxResources);
    services.set(app, s);
  }
  return s;
}
