import { isoDay, today } from '../../spec/iso8601.js';
import type { FastifyRequest } from 'fastify';
import { formatError } from '../errors.js';
import { TRANSACTION, TRANSACTIONS, wrap, type Query, type Tx, type TxList } from './accounts-shared.js';
import { type Fault } from './fault.js';
import { beforeGuard, beforeHandler, rewriteJson } from '../hooks.js';

type Body = Record<string, any>;
type Params = Record<string, string | undefined>;
const pendingQueries = new WeakSet<FastifyRequest>();

/** The query asks for balances (withBalance=true), before or after Fastify's coercion. */
const withBalance = (query: unknown) => {
  const v = (query as { withBalance?: unknown } | undefined)?.withBalance;
  return v === true || v === 'true';
};

// Faults of the transaction reads (accounts area): bookingStatus, the date window, entry
// references and delta lists, transaction details.

const faults: Fault[] = [
  {
    id: 'accounts.transaction-detail-ignores-consent-id',
    description:
      "the transaction detail read is served under any Consent-ID, one it never issued included (the consent of the account's last transaction list is used); the other account reads still check it",
    breaks: ['accounts.consent.unknown'],
    install: (app) => {
      const lastConsentOf = new Map<string, string>();
      rewriteJson(app, { method: 'GET', route: TRANSACTIONS }, (_b: unknown, req) => {
        const id = req.headers['consent-id'];
        if (typeof id === 'string') lastConsentOf.set((req.params as { accountId: string }).accountId, id);
      });
      beforeGuard(app, { method: 'GET', route: TRANSACTION }, (req) => {
        const id = req.headers['consent-id'];
        const known = lastConsentOf.get((req.params as { accountId?: string }).accountId ?? '');
        if (known && (typeof id !== 'string' || !app.sandbox.consents.get(id))) req.headers['consent-id'] = known;
      });
    },
  },
  {
    id: 'accounts.booking-status-defaulted',
    description: 'a missing or unknown bookingStatus is read as both',
    breaks: [
      'accounts.transactions.booking-status-required',
      'accounts.transactions.booking-status-required-code',
      'accounts.transactions.booking-status-case',
    ],
    install: (app) =>
      beforeHandler(app, { route: TRANSACTIONS }, (req) => {
        const q = req.query as Query;
        if (!['booked', 'pending', 'both'].includes(String(q.bookingStatus))) q.bookingStatus = 'both';
      }),
  },
  {
    id: 'accounts.booking-status-any-case',
    description: 'bookingStatus is read in any case (BOOKED is taken as booked)',
    breaks: ['accounts.transactions.booking-status-case'],
    install: (app) =>
      beforeHandler(app, { route: TRANSACTIONS }, (req) => {
        const q = req.query as Query;
        if (typeof q.bookingStatus === 'string') q.bookingStatus = q.bookingStatus.toLowerCase();
      }),
  },
  {
    id: 'accounts.date-from-defaulted',
    description: 'a transaction list without dateFrom (and no delta access) gives the whole history',
    breaks: ['accounts.transactions.date-from-required'],
    install: (app) =>
      beforeHandler(app, { route: TRANSACTIONS }, (req) => {
        const q = req.query as Query;
        if (q.dateFrom === undefined && q.entryReferenceFrom === undefined && q.deltaList === undefined)
          q.dateFrom = '1970-01-01';
      }),
  },
  {
    id: 'accounts.date-to-exclusive',
    description: 'dateTo is exclusive: booked entries of that day are left out',
    breaks: ['accounts.transactions.date-range'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: TRANSACTIONS }, (b: TxList, req) => {
        const to = (req.query as Query).dateTo;
        if (typeof to === 'string' && b.transactions.booked)
          b.transactions.booked = b.transactions.booked.filter((t) => t.bookingDate !== to);
      }),
  },
  {
    id: 'accounts.booked-before-date-from',
    description: 'a booked entry from the day before dateFrom comes with the list',
    breaks: ['accounts.transactions.date-range'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: TRANSACTIONS }, (b: TxList, req) => {
        const q = req.query as Query;
        const first = b.transactions.booked?.[0];
        if (typeof q.dateFrom !== 'string' || q.deltaList !== undefined || q.entryReferenceFrom !== undefined || !first)
          return;
        const before = isoDay(Date.parse(`${q.dateFrom}T00:00:00Z`) - 86_400_000);
        b.transactions.booked!.unshift({
          ...first,
          transactionId: `${first.transactionId}-EARLY`,
          entryReference: '00000000000',
          bookingDate: before,
          valueDate: before,
        });
      }),
  },
  {
    id: 'accounts.date-to-default-month',
    description: 'without dateTo the list ends 30 days after dateFrom instead of today',
    breaks: ['accounts.transactions.date-to-default'],
    install: (app) =>
      beforeHandler(app, { route: TRANSACTIONS }, (req) => {
        const q = req.query as Query;
        if (typeof q.dateFrom === 'string' && q.dateTo === undefined && q.deltaList === undefined) {
          const end = isoDay(Date.parse(`${q.dateFrom}T00:00:00Z`) + 30 * 86_400_000);
          const now = today();
          q.dateTo = end < now ? end : now;
        }
      }),
  },
  {
    id: 'accounts.booked-includes-pending',
    description: 'bookingStatus=booked gives the pending entries too',
    breaks: ['accounts.transactions.booking-status-filter'],
    install: (app) =>
      beforeHandler(app, { route: TRANSACTIONS }, (req) => {
        const q = req.query as Query;
        if (q.bookingStatus === 'booked') q.bookingStatus = 'both';
      }),
  },
  {
    id: 'accounts.pending-booking-date',
    description: 'pending entries carry a bookingDate (their value date)',
    breaks: ['accounts.transactions.pending-no-booking-date'],
    install: (app) => {
      rewriteJson(app, { method: 'GET', route: TRANSACTIONS }, (b: TxList) =>
        b.transactions.pending?.forEach((t) => (t.bookingDate = t.valueDate)),
      );
      rewriteJson(app, { method: 'GET', route: TRANSACTION }, (b: { transactionsDetails: Tx }) => {
        if (!b.transactionsDetails.bookingDate) b.transactionsDetails.bookingDate = b.transactionsDetails.valueDate;
      });
    },
  },
  {
    id: 'accounts.account-link-to-list',
    description: 'transactions._links.account points at List accounts instead of the account',
    breaks: ['accounts.transactions.account-link'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: TRANSACTIONS }, (b: TxList) => {
        if (b.transactions._links) b.transactions._links.account = { href: '/v1/accounts' };
      }),
  },
  {
    id: 'accounts.entry-reference-inclusive',
    description: 'entryReferenceFrom gives the named entry too (inclusive)',
    breaks: ['accounts.transactions.entry-reference-from'],
    install: (app) =>
      wrap(app, 'select', (original) => (consent, account, q) => {
        if (q.entryReferenceFrom === undefined) return original(consent, account, q);
        const n = String(Number(q.entryReferenceFrom) - 1).padStart(q.entryReferenceFrom.length, '0');
        return original(consent, account, { ...q, entryReferenceFrom: n });
      }),
  },
  {
    id: 'accounts.delta-list-ignored',
    description: 'deltaList=true is accepted and ignored: every read gives the same entries',
    breaks: ['accounts.transactions.delta-list'],
    install: (app) =>
      wrap(
        app,
        'select',
        (original) => (consent, account, q) =>
          q.deltaList
            ? original(consent, account, { ...q, deltaList: false, dateFrom: q.dateFrom ?? '1970-01-01' })
            : original(consent, account, q),
      ),
  },
  {
    id: 'accounts.details-unwrapped',
    description: 'transaction detail gives the Transaction without the transactionsDetails key',
    breaks: ['accounts.transaction.details'],
    install: (app) =>
      rewriteJson(
        app,
        { method: 'GET', route: TRANSACTION },
        (b: { transactionsDetails: Tx }) => b.transactionsDetails,
      ),
  },
  {
    id: 'accounts.details-amount-differs',
    description: 'transaction detail gives another transactionAmount than the list entry of the same transaction',
    breaks: ['accounts.transaction.details'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: TRANSACTION }, (b: { transactionsDetails: Tx }) => {
        const amount = b.transactionsDetails?.transactionAmount as { amount?: string } | undefined;
        if (amount?.amount !== undefined) amount.amount = (Number(amount.amount) + 1).toFixed(2);
      }),
  },
  {
    id: 'accounts.unknown-transaction-served',
    description: "an unknown transactionId is answered with the account's latest entry",
    breaks: ['accounts.transaction.unknown'],
    install: (app) =>
      wrap(
        app,
        'findTransaction',
        (original, service) => (consent, account, id) =>
          original(consent, account, id) ?? service.bankOf(consent).transactions(account.key).at(-1),
      ),
  },
  {
    id: 'accounts.transactions-any-date-from',
    description: 'the transaction list reads a malformed dateFrom as 2000-01-01',
    breaks: ['accounts.transactions.date-from-format'],
    install: (app) =>
      beforeHandler(app, { route: /\/transactions$/ }, (req) => {
        const q = req.query as Params;
        if (q.dateFrom !== undefined && !/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/.test(q.dateFrom))
          q.dateFrom = '2000-01-01';
      }),
  },
  {
    id: 'accounts.pending-filter-gives-booked',
    description:
      'bookingStatus=pending answers the booked entries too, in the pending array (without their bookingDate)',
    breaks: ['accounts.transactions.booking-status-filter'],
    install: (app) => {
      beforeHandler(app, { method: 'GET', route: TRANSACTIONS }, (req) => {
        const q = req.query as Record<string, unknown>;
        if (q.bookingStatus !== 'pending') return;
        q.bookingStatus = 'both';
        pendingQueries.add(req);
      });
      rewriteJson(app, { method: 'GET', route: TRANSACTIONS }, (b: Body, req) => {
        if (!pendingQueries.has(req) || !b.transactions) return;
        const moved = (b.transactions.booked ?? []).map((t: Body) => {
          const { bookingDate: _dropped, ...rest } = t;
          return rest;
        });
        b.transactions.pending = [...(b.transactions.pending ?? []), ...moved];
        delete b.transactions.booked;
      });
    },
  },
  {
    id: 'accounts.transactions-with-balance-refused',
    description: 'the transaction list with withBalance is refused (400 FORMAT_ERROR)',
    breaks: ['accounts.transactions.with-balance-accepted'],
    install: (app) =>
      beforeHandler(app, { method: 'GET', route: TRANSACTIONS }, (req) => {
        if (withBalance(req.query)) throw formatError('query withBalance is not supported here', 'withBalance');
      }),
  },
  {
    id: 'accounts.transactions-balances-amount-as-number',
    description: 'the balances of a transaction list with withBalance carry balanceAmount.amount as a number',
    breaks: ['accounts.transactions.with-balance-balances'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: TRANSACTIONS }, (b: Body, req) => {
        if (!withBalance(req.query)) return;
        const balances = Array.isArray(b.balances)
          ? (b.balances as { balanceAmount?: Body }[])
          : [{ balanceType: 'closingBooked', balanceAmount: { currency: 'EUR', amount: '1.00' } }];
        for (const x of balances)
          if (x.balanceAmount && typeof x.balanceAmount.amount === 'string')
            x.balanceAmount.amount = Number(x.balanceAmount.amount);
        b.balances = balances;
      }),
  },
];

export default faults;
