import type { Fault } from './fault.js';
import { rewriteJson } from '../hooks.js';
import { LIST } from './accounts-shared.js';

// Faults of the links an account carries: links that lead to a read, but of another account.

type Account = { _links?: Record<string, { href: string }> };

const faults: Fault[] = [
  {
    id: 'accounts.balances-link-of-next-account',
    description:
      "List accounts gives each account the balances link of the next account in the list (the last the first's): each reads with a 2xx, but not this account's balances",
    breaks: ['accounts.account.links'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: LIST }, (b: { accounts?: Account[] }) => {
        const list = (b.accounts ?? []).filter((a) => a._links?.balances);
        if (list.length < 2) return;
        const hrefs = list.map((a) => a._links!.balances.href);
        list.forEach((a, i) => (a._links!.balances = { href: hrefs[(i + 1) % hrefs.length] }));
      }),
  },
];

export default faults;
