import { rewriteJson } from '../hooks.js';
import type { Variant } from './variant.js';

const LIST = /\/accountinformation\/v1\/accounts$/;
const DETAIL = /\/accounts\/:accountId$/;

type Account = Record<string, unknown>;

/** Fields the specification only lists in a response description, with no rule that they are present. */
const variants: Variant[] = [
  {
    id: 'fields.account-currency-omitted',
    description: 'List accounts and account detail leave out the optional listed Account fields (currency)',
    allows:
      '| Account | resourceId, iban, currency (`XXX` for a multicurrency account), product, cashAccountType, name, clearingNumber, `_links` (`balances`, `transactions`) | (Resources: the fields are listed; no rule makes currency required)',
    concerns: ['accounts.list.shape', 'accounts.detail.shape', 'accounts.list.complete'],
    warns: ['accounts.list.complete'],
    install: (app) => {
      rewriteJson(app, { method: 'GET', route: LIST }, (b: { accounts?: Account[] }) =>
        b.accounts?.forEach((a) => delete a.currency),
      );
      rewriteJson(app, { method: 'GET', route: DETAIL }, (b: { account?: Account }) => void delete b.account?.currency);
    },
  },
];

export default variants;
