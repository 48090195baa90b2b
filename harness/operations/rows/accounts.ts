import { block } from '../../http/broken.js';
import type { PrepKit, Prepared } from '../types.js';
import { BIC, op, READ } from './common.js';

// C. Account information: "All GET. `Consent-ID` is required."

/**
 * A read under the worker's authorised account consent (called through the account client), of
 * the account it lists and, where the template asks, a booked transaction of it (none blocks the
 * read); `query` as the read needs it.
 */
const underConsent =
  (o: { transaction?: boolean; query?: Record<string, string> } = {}) =>
  async ({ w, fill }: PrepKit): Promise<Prepared> => {
    const a = await w.accountRead();
    if (o.transaction && !a.transactionId)
      block(
        'accounts.transactions.shape',
        'a booked transaction to read',
        a.noTransaction ?? 'the account lists no booked transaction with a transactionId',
      );
    return {
      path: fill({ 'account-id': a.accountId, transactionId: a.transactionId ?? '' }),
      accountRead: a.consentId,
      ...(o.query ? { query: o.query } : {}),
    };
  };

export const ACCOUNTS = (
  [
    ['list', 'List accounts', '{accounts}', 'accounts/account-list', 'accounts.list.shape', underConsent()],
    [
      'detail',
      'Account detail',
      '{accounts}/{account-id}',
      'accounts/account-detail',
      'accounts.detail.shape',
      underConsent(),
    ],
    [
      'balances',
      'Balances',
      '{accounts}/{account-id}/balances',
      'accounts/balances',
      'accounts.balances.shape',
      underConsent(),
    ],
    [
      'transactions',
      'Transaction list',
      '{accounts}/{account-id}/transactions',
      'accounts/transaction-list',
      'accounts.transactions.shape',
      underConsent({ query: { bookingStatus: 'booked', dateFrom: '2000-01-01' } }),
    ],
    [
      'transaction',
      'Transaction detail',
      '{accounts}/{account-id}/transactions/{transactionId}',
      'accounts/transaction-details',
      'accounts.transaction.details',
      underConsent({ transaction: true }),
    ],
  ] as const
).map(([id, name, template, response, control, prepare]) =>
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
    control,
    prepare,
  }),
);
