import type { Fault } from './fault.js';
import { rewriteJson } from '../hooks.js';
import { DETAIL, LIST } from './accounts-shared.js';

// Faults of the balances an account carries under withBalance (List accounts, account detail).

type Account = { balances?: { balanceAmount?: { amount?: unknown } }[] };

/** The amounts of an account's balances as JSON numbers, not strings. */
const numberAmounts = (a: Account | undefined) => {
  for (const b of a?.balances ?? []) if (b.balanceAmount) b.balanceAmount.amount = Number(b.balanceAmount.amount);
};

/** A multicurrency account's currency as the first currency it holds, not XXX. */
const oneCurrency = (a: { currency?: string; balances?: unknown } | undefined) => {
  if (a?.currency === 'XXX') a.currency = 'SEK';
};

const faults: Fault[] = [
  {
    id: 'accounts.multicurrency-currency-sek',
    description:
      'a multicurrency account (balances in several currencies) is listed and read with currency SEK, not XXX',
    breaks: ['accounts.account.multicurrency-xxx'],
    install: (app) => {
      rewriteJson(app, { method: 'GET', route: LIST }, (b: { accounts?: { currency?: string }[] }) =>
        b.accounts?.forEach(oneCurrency),
      );
      rewriteJson(app, { method: 'GET', route: DETAIL }, (b: { account?: { currency?: string } }) =>
        oneCurrency(b.account),
      );
    },
  },
  {
    id: 'accounts.list-with-balance-amount-number',
    description: 'with withBalance=true, List accounts gives the balances of each account with amount as a JSON number',
    breaks: ['accounts.list.with-balance-balances'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: LIST }, (b: { accounts?: Account[] }, req) => {
        if ((req.query as { withBalance?: boolean }).withBalance) b.accounts?.forEach(numberAmounts);
      }),
  },
  {
    id: 'accounts.detail-with-balance-amount-number',
    description: 'with withBalance=true, account detail gives the balances of the account with amount as a JSON number',
    breaks: ['accounts.list.with-balance-balances'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: DETAIL }, (b: { account?: Account }, req) => {
        if ((req.query as { withBalance?: boolean }).withBalance) numberAmounts(b.account);
      }),
  },
];

export default faults;
