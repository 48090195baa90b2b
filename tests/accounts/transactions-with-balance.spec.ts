import { isoDate } from '../../harness/values/dates.js';
import { notJudged } from '../../harness/test.js';
import { prerequisite, requireSuccess } from '../../harness/http/broken.js';
import { because, expect, req, test, type Balance } from '../../harness/areas/accounts.js';

// withBalance on the transaction list (query table of section C: "may be ignored"): accepted, and
// the balances it brings, when the bank honours it, typed as the Balance row says.

const QUERY = { bookingStatus: 'booked', dateFrom: isoDate(-30), withBalance: true } as const;

test(
  'the transaction list with withBalance=true is accepted',
  req('accounts.transactions.with-balance-accepted'),
  async ({ accounts, consent }) => {
    const account = consent.accounts[0];
    const res = await accounts.transactions(consent.consentId, account.resourceId, QUERY);
    // Where the list is refused, the same list without withBalance is its control: refused too, it
    // is the list's own failure (accounts.transactions.shape), not the parameter's.
    if (res.status < 200 || res.status >= 300) {
      const { withBalance: _, ...plain } = QUERY;
      requireSuccess(
        await accounts.transactions(consent.consentId, account.resourceId, plain),
        'accounts.transactions.shape',
        'the same transaction list without withBalance (the positive control)',
      );
    }
    await expect(
      res,
      because(`the transaction list of account ${account.resourceId} with withBalance=true`),
    ).toSucceed();
    // The list's shape is accounts.transactions.shape's: here, that the query is taken.
  },
);

test(
  'the balances a transaction list with withBalance=true brings are typed as balances',
  req('accounts.transactions.with-balance-balances'),
  async ({ accounts, consent }) => {
    const account = consent.accounts[0];
    const res = await accounts.transactions(consent.consentId, account.resourceId, QUERY);
    // Whether the query is taken at all is accounts.transactions.with-balance-accepted's.
    await prerequisite(
      'accounts.transactions.with-balance-accepted',
      'read the transaction list with withBalance',
      async () => expect(res).toSucceed(),
    );
    const balances = res.json<{ balances?: unknown }>().balances;
    // withBalance may be ignored: a list without balances has nothing to type.
    if (balances === undefined)
      notJudged(
        `the transaction list read with withBalance carries no balances (withBalance may be ignored): nothing to type; ${res.describe()}`,
      );
    expect(
      Array.isArray(balances),
      because(`balances of the transaction list is an array of Balance; got ${JSON.stringify(balances)}`),
    ).toBe(true);
    for (const [i, b] of (balances as Balance[]).entries())
      expect.soft(b, because(`balances[${i}] of the transaction list`)).toMatchSchema('accounts/balance');
  },
);
