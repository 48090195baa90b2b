import { isIpv4 } from '../../spec/header-forms.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { accountsOf, type AisEndpoint, type AisService, type TransactionQuery } from '../accounts/service.js';
import type { Consent } from '../consents/store.js';
import { BgError, formatError } from '../errors.js';
import { requestHeader } from '../plugins/guard.js';
import type { SeedAccount, SeedBalance, SeedTransaction } from '../seed/accounts.js';

const BASE = '/psd2/accountinformation/v1/accounts';
/** Links use the short form (Versioning 3). */
const SHORT = '/v1/accounts';
const config = { api: true, bicFi: true, scope: 'accountinformation' as const };
const DATE = { type: 'string', format: 'date' } as const;
const WITH_BALANCE = { querystring: { type: 'object', properties: { withBalance: { type: 'boolean' } } } } as const;
const TRANSACTION_LIST = {
  querystring: {
    type: 'object',
    required: ['bookingStatus'],
    properties: {
      bookingStatus: { type: 'string', enum: ['booked', 'pending', 'both'] },
      dateFrom: DATE,
      dateTo: DATE,
      entryReferenceFrom: { type: 'string' },
      deltaList: { type: 'boolean' },
      // May be ignored (section C); validated all the same.
      withBalance: { type: 'boolean' },
    },
  },
} as const;

interface TransactionListQuery {
  bookingStatus: TransactionQuery['bookingStatus'];
  dateFrom?: string;
  dateTo?: string;
  entryReferenceFrom?: string;
  deltaList?: boolean;
  withBalance?: boolean;
}

type AisOf = ReturnType<typeof accountsOf>;

/** A Balance of account `a` (the Balance resource lists the account's clearingNumber). */
const balanceOut = (a: SeedAccount) => (b: SeedBalance) => ({
  balanceType: b.balanceType,
  balanceAmount: { currency: b.currency, amount: b.amount },
  referenceDate: b.referenceDate,
  ...(b.lastChangeDateTime ? { lastChangeDateTime: b.lastChangeDateTime } : {}),
  clearingNumber: a.clearingNumber,
});

/**
 * Counts a read about to be served: a one-off consent's one access (any read, PSU present or
 * not), and frequencyPerDay, where only reads without the PSU present (no PSU-IP-Address) count.
 */
const countRead =
  (ais: AisOf) =>
  (req: FastifyRequest, consent: Consent, accountKey: string, service: AisService | 'list', endpoint: AisEndpoint) => {
    if (!ais.oneOffAllows(consent, accountKey, endpoint))
      throw new BgError(
        429,
        'ACCESS_EXCEEDED',
        `this one-off consent has had its one access to ${endpoint} of this account`,
      );
    if (!requestHeader(req, 'PSU-IP-Address') && !ais.admit(consent, accountKey, service)) {
      throw new BgError(
        429,
        'ACCESS_EXCEEDED',
        `frequencyPerDay ${consent.frequencyPerDay} used up for this account and service today`,
      );
    }
    ais.spendOneOff(consent, accountKey, endpoint);
  };

/** What a read checks before its handler: the consent (Consent-ID), the account and PSU-IP-Address; and its count. */
function guardsOf(app: FastifyInstance, ais: AisOf) {
  /** Consent-ID required (400), known to this TPP (403 CONSENT_UNKNOWN), and usable (401). */
  const consentOf = (req: FastifyRequest): Consent => {
    const id = requestHeader(req, 'Consent-ID');
    if (!id) throw formatError('header Consent-ID is required on account-information reads', 'Consent-ID');
    const c = app.sandbox.consents.get(id);
    if (!c || c.clientId !== req.token?.clientId)
      throw new BgError(403, 'CONSENT_UNKNOWN', `no consent ${id.slice(0, 60)} for this TPP`, 'Consent-ID');
    if (c.type !== 'ais')
      throw new BgError(401, 'CONSENT_INVALID', 'the consent is not an account-information consent', 'Consent-ID');
    const state = ais.state(c);
    if (state === 'expired') throw new BgError(401, 'CONSENT_EXPIRED', 'the consent has expired', 'Consent-ID');
    if (state !== 'ok')
      throw new BgError(401, 'CONSENT_INVALID', `the consent is ${c.status}, not valid`, 'Consent-ID');
    return c;
  };

  /** The account behind the path id, and the consent must give `service` on it. */
  const accountOf = (
    req: FastifyRequest,
    consent: Consent,
    service: AisService,
  ): { id: string; account: SeedAccount } => {
    const id = (req.params as { accountId: string }).accountId;
    const account = ais.resolve(consent, id);
    if (!account)
      throw new BgError(403, 'RESOURCE_UNKNOWN', `no account ${id.slice(0, 60)} under this consent`, 'account-id');
    if (!ais.allows(consent, account, service))
      throw new BgError(401, 'CONSENT_INVALID', `the consent does not give ${service} on this account`, 'account-id');
    return { id, account };
  };

  // A read's consent and account are checked before its query string (route preValidation) and kept for the handler.
  const consents = new WeakMap<FastifyRequest, Consent>();
  const accounts = new WeakMap<FastifyRequest, { id: string; account: SeedAccount }>();
  const authorise = (service?: AisService) => async (req: FastifyRequest) => {
    const ip = requestHeader(req, 'PSU-IP-Address');
    if (ip !== undefined && !isIpv4(ip))
      throw formatError(`header PSU-IP-Address must be an IPv4 address, got "${ip.slice(0, 60)}"`, 'PSU-IP-Address');
    const consent = consentOf(req);
    consents.set(req, consent);
    if (service) accounts.set(req, accountOf(req, consent, service));
  };

  return {
    ais,
    authorise,
    count: countRead(ais),
    /** The consent `authorise` checked for this request. */
    consentIn: (req: FastifyRequest) => consents.get(req)!,
    /** The account `authorise` checked for this request (a read of one account). */
    accountIn: (req: FastifyRequest) => accounts.get(req)!,
  };
}
type Reads = ReturnType<typeof guardsOf>;

/** An account as the reads show it: balances with withBalance where the consent gives them, links to what it gives. */
const accountOut = (ais: AisOf, consent: Consent, id: string, a: SeedAccount, withBalance: boolean) => ({
  resourceId: id,
  iban: a.iban,
  currency: a.currency,
  product: a.product,
  cashAccountType: a.cashAccountType,
  name: a.name,
  clearingNumber: a.clearingNumber,
  // withBalance is honoured where the consent gives balances on the account.
  ...(withBalance && ais.allows(consent, a, 'balances')
    ? { balances: ais.bankOf(consent).balances(a.key).map(balanceOut(a)) }
    : {}),
  _links: {
    ...(ais.allows(consent, a, 'balances') ? { balances: { href: `${SHORT}/${id}/balances` } } : {}),
    ...(ais.allows(consent, a, 'transactions') ? { transactions: { href: `${SHORT}/${id}/transactions` } } : {}),
  },
});

/** A transaction as the list and the detail show it. */
const transactionOut = (id: string, t: SeedTransaction) => ({
  transactionId: t.transactionId,
  entryReference: t.entryReference,
  ...(t.status === 'booked' ? { bookingDate: t.entryDate } : {}),
  valueDate: t.valueDate,
  transactionAmount: { currency: t.currency, amount: t.amount },
  ...(t.creditorName ? { creditorName: t.creditorName } : {}),
  ...(t.creditorAccount ? { creditorAccount: t.creditorAccount } : {}),
  ...(t.debtorName ? { debtorName: t.debtorName } : {}),
  ...(t.debtorAccount ? { debtorAccount: t.debtorAccount } : {}),
  remittanceInformationUnstructured: t.remittanceInformationUnstructured,
  ...(t.mandateId ? { mandateId: t.mandateId } : {}),
  bankTransactionCode: t.bankTransactionCode,
  ...(t.balanceAfter
    ? {
        balanceAfterTransaction: {
          balanceAmount: { currency: t.currency, amount: t.balanceAfter },
          balanceType: 'interimBooked',
        },
      }
    : {}),
  _links: { transactionDetails: { href: `${SHORT}/${id}/transactions/${t.transactionId}` } },
});

/** GET accounts: the accounts the consent gives. */
const listAccounts = (r: Reads) => async (req: FastifyRequest<{ Querystring: { withBalance?: boolean } }>) => {
  const consent = r.consentIn(req);
  r.count(req, consent, '*', 'list', 'list');
  const withBalance = req.query.withBalance ?? false;
  return { accounts: r.ais.visible(consent).map((v) => accountOut(r.ais, consent, v.id, v.account, withBalance)) };
};

/** GET accounts/{account-id}. */
const readAccount = (r: Reads) => async (req: FastifyRequest<{ Querystring: { withBalance?: boolean } }>) => {
  const consent = r.consentIn(req);
  const { id, account } = r.accountIn(req);
  r.count(req, consent, account.key, 'accounts', 'detail');
  return { account: accountOut(r.ais, consent, id, account, req.query.withBalance ?? false) };
};

/** GET accounts/{account-id}/balances. */
const readBalances = (r: Reads) => async (req: FastifyRequest) => {
  const consent = r.consentIn(req);
  const { account } = r.accountIn(req);
  r.count(req, consent, account.key, 'balances', 'balances');
  return {
    account: { iban: account.iban },
    balances: r.ais.bankOf(consent).balances(account.key).map(balanceOut(account)),
  };
};

/** GET accounts/{account-id}/transactions: the date window, entryReferenceFrom or deltaList, bookingStatus. */
const listTransactions = (r: Reads) => async (req: FastifyRequest<{ Querystring: TransactionListQuery }>) => {
  const consent = r.consentIn(req);
  const { id, account } = r.accountIn(req);
  const { bookingStatus, dateFrom, entryReferenceFrom } = req.query;
  const dateTo = req.query.dateTo ?? r.ais.today();
  const deltaList = req.query.deltaList ?? false;
  if (entryReferenceFrom !== undefined && deltaList)
    throw new BgError(
      400,
      'PARAMETER_NOT_CONSISTENT',
      'entryReferenceFrom and deltaList exclude each other',
      'deltaList',
    );
  if (entryReferenceFrom !== undefined && !/^\d{11}$/.test(entryReferenceFrom))
    throw formatError(
      `query entryReferenceFrom "${entryReferenceFrom.slice(0, 30)}" is no entry reference of this account`,
      'entryReferenceFrom',
    );
  if (dateFrom === undefined && entryReferenceFrom === undefined && !deltaList)
    throw formatError('query dateFrom is required without delta access (entryReferenceFrom or deltaList)', 'dateFrom');
  if (dateFrom !== undefined && dateFrom > dateTo && entryReferenceFrom === undefined && !deltaList)
    throw new BgError(400, 'PERIOD_INVALID', `dateFrom ${dateFrom} is after dateTo ${dateTo}`, 'dateFrom');
  r.count(req, consent, account.key, 'transactions', 'transactions');
  const query: TransactionQuery = { bookingStatus, dateFrom, dateTo, entryReferenceFrom, deltaList };
  const { booked, pending } = r.ais.select(consent, account, query);
  return {
    account: { iban: account.iban },
    transactions: {
      ...(bookingStatus !== 'pending' ? { booked: booked.map((t) => transactionOut(id, t)) } : {}),
      ...(bookingStatus !== 'booked' ? { pending: pending.map((t) => transactionOut(id, t)) } : {}),
      _links: { account: { href: `${SHORT}/${id}` } },
    },
    // withBalance may be ignored (section C); honoured, as Berlin Group does, where the consent gives balances.
    ...(req.query.withBalance && r.ais.allows(consent, account, 'balances')
      ? { balances: r.ais.bankOf(consent).balances(account.key).map(balanceOut(account)) }
      : {}),
  };
};

/** GET accounts/{account-id}/transactions/{transactionId}. */
const readTransaction = (r: Reads) => async (req: FastifyRequest) => {
  const consent = r.consentIn(req);
  const { id, account } = r.accountIn(req);
  const transactionId = (req.params as { transactionId: string }).transactionId;
  const t = r.ais.findTransaction(consent, account, transactionId);
  if (!t)
    throw new BgError(
      404,
      'RESOURCE_UNKNOWN',
      `no transaction ${transactionId.slice(0, 60)} on this account`,
      'transactionId',
    );
  r.count(req, consent, account.key, 'transactions', 'transaction-detail');
  return { transactionsDetails: transactionOut(id, t) };
};

/** Account information (endpoint section C) under a consent, at the vendor's paths. */
export default async function accountRoutes(app: FastifyInstance): Promise<void> {
  const r = guardsOf(app, accountsOf(app));
  app.get<{ Querystring: { withBalance?: boolean } }>(
    BASE,
    { config, schema: WITH_BALANCE, preValidation: r.authorise() },
    listAccounts(r),
  );
  app.get<{ Querystring: { withBalance?: boolean } }>(
    `${BASE}/:accountId`,
    { config, schema: WITH_BALANCE, preValidation: r.authorise('accounts') },
    readAccount(r),
  );
  app.get(`${BASE}/:accountId/balances`, { config, preValidation: r.authorise('balances') }, readBalances(r));
  app.get<{ Querystring: TransactionListQuery }>(
    `${BASE}/:accountId/transactions`,
    { config, schema: TRANSACTION_LIST, preValidation: r.authorise('transactions') },
    listTransactions(r),
  );
  app.get(
    `${BASE}/:accountId/transactions/:transactionId`,
    { config, preValidation: r.authorise('transactions') },
    readTransaction(r),
  );
}
