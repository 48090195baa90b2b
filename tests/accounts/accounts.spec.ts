import { NOT_JUDGED_ANNOTATION } from '../../harness/catalogue/req.js';
import { notJudged } from '../../harness/test.js';
import { isoDate } from '../../harness/values/dates.js';
import { requireSuccess } from '../../harness/http/broken.js';
import { ACCOUNT_LINKS, notPointingAt } from '../../harness/http/link-target.js';
import { disagreements } from '../../harness/values/json.js';
import { because, expect, req, test, type Account, eachAccount } from '../../harness/areas/accounts.js';
import { ibanNote, ibanProblem } from '../../spec/iso13616.js';

// List accounts and account detail: the Account resource, its links and its id.

const FIELDS = ['resourceId', 'iban', 'currency', 'product', 'cashAccountType', 'name', 'clearingNumber'] as const;

test(
  'List accounts answers accounts, an array of Account',
  req('accounts.list.shape'),
  async ({ accounts, consent }) => {
    const res = await accounts.list(consent.consentId);
    await expect(res).toSucceed();
    await expect(res).toMatchSchema('accounts/account-list');
    expect(
      res.json<{ accounts: Account[] }>().accounts.length,
      because('the PSU behind the consent has accounts; List accounts gave none'),
    ).toBeGreaterThan(0);
  },
);

test(
  'every Account of List accounts carries the fields listed for an Account',
  req('accounts.list.complete'),
  async ({ accounts, consent }) => {
    const res = requireSuccess(await accounts.list(consent.consentId), 'accounts.list.shape', 'List accounts');
    const listed = res.json<{ accounts?: Account[] }>().accounts;
    if (!Array.isArray(listed) || !listed.length) notJudged(`List accounts answered no account: ${res.describe()}`);
    for (const account of listed)
      await expect.soft(account, `account ${account.resourceId}`).toMatchSchema('accounts/account-complete');
  },
);

test(
  'account detail answers account, the Account of the list',
  req('accounts.detail.shape'),
  async ({ accounts, consent }) => {
    for (const entry of eachAccount(consent)) {
      const res = await accounts.detail(consent.consentId, entry.resourceId);
      await expect(res).toSucceed();
      await expect(res).toMatchSchema('accounts/account-detail');
      const detail = res.json<{ account: Account }>().account;
      expect(detail.resourceId, because(`${res.label} must be the account of the list entry`)).toBe(entry.resourceId);
      expect(
        disagreements(detail, entry, FIELDS),
        because(`account of ${res.label} must agree with the list entry on the fields both carry`),
      ).toEqual([]);
    }
  },
);

test('every iban of an account has valid check digits', req('accounts.account.iban-check'), async ({ consent }) => {
  for (const a of consent.accounts.filter((x) => x.iban !== undefined)) {
    // ISO 13616 judges (country, length, mod-97); a national check inside the BBAN is a note.
    expect(ibanProblem(a.iban!), because(`accounts[].iban ${a.iban} is not a valid IBAN (ISO 13616)`)).toBeUndefined();
    const note = ibanNote(a.iban!);
    if (note) test.info().annotations.push({ type: 'note', description: `accounts[].iban ${a.iban} ${note}` });
  }
});

test(
  'the balances and transactions links of an account resolve to working reads',
  req('accounts.account.links'),
  async ({ accounts, consent }) => {
    // The row lists `_links` (balances, transactions) without a rule that they are present: each link
    // given is judged; their presence is accounts.list.complete's (a SHOULD).
    let given = 0;
    for (const a of eachAccount(consent)) {
      const links = a._links ?? {};
      // Each leads to this account's read: its resourceId, then balances or transactions.
      const account = { id: a.resourceId, what: 'the account' };
      for (const name of ['balances', 'transactions'] as const) {
        const href = links[name]?.href;
        if (!href) continue;
        given++;
        expect
          .soft(notPointingAt(accounts.api.target, { name, href }, account, ACCOUNT_LINKS), because('List accounts'))
          .toBeUndefined();
        const query = name === 'transactions' ? { bookingStatus: 'both', dateFrom: isoDate(-7) } : undefined;
        await expect(await accounts.read(consent.consentId, href, { query })).toSucceed();
      }
    }
    test.skip(
      given === 0,
      'not judged: no account gives _links.balances or _links.transactions (listed, not required)',
    );
  },
);

test(
  'the account id of one read works in the next, for the whole consent',
  req('accounts.account.id-stable'),
  async ({ accounts, consent }) => {
    const ids = consent.accounts.map((a) => a.resourceId);
    for (const id of ids) {
      const detail = await accounts.detail(consent.consentId, id);
      await expect(detail).toSucceed();
      expect(
        detail.json<{ account: Account }>().account.resourceId,
        because(`account detail of ${id} must carry the same resourceId`),
      ).toBe(id);
      // The id works in the next reads: where one is not served at all (another requirement's
      // failure), it is named not judged, with that root cause; the id's own reads are judged.
      const next = [
        ['accounts.balances.shape', 'balances', await accounts.balances(consent.consentId, id)],
        [
          'accounts.transactions.shape',
          'transaction list',
          await accounts.transactions(consent.consentId, id, { bookingStatus: 'booked', dateFrom: isoDate(-7) }),
        ],
      ] as const;
      for (const [by, what, res] of next) {
        if (res.status === 404 || res.status >= 500)
          test.info().annotations.push({
            type: NOT_JUDGED_ANNOTATION,
            description: `[blocked by ${by}] the ${what} of ${id}: ${res.describe()}`,
          });
        else await expect.soft(res, because(`the ${what} of account ${id}, by the id of its detail`)).toSucceed();
      }
    }
    // The same set: the order of the list is not stated.
    const again = (await accounts.accountsOf(consent.consentId)).map((a) => a.resourceId).sort();
    expect(
      again,
      because('a second List accounts under the same consent must give the same account ids (in any order)'),
    ).toEqual([...ids].sort());
  },
);

test(
  'withBalance=true is accepted on List accounts and account detail',
  req('accounts.list.with-balance-accepted'),
  async ({ accounts, consent }) => {
    await expect(await accounts.list(consent.consentId, { query: { withBalance: true } })).toSucceed();
    await expect(
      await accounts.detail(consent.consentId, consent.accounts[0].resourceId, { query: { withBalance: true } }),
    ).toSucceed();
  },
);

test(
  'withBalance=true gives each account its balances',
  req('accounts.list.with-balance'),
  async ({ accounts, consent }) => {
    const res = await accounts.list(consent.consentId, { query: { withBalance: true } });
    await expect(res).toSucceed();
    const listed = res.json<{ accounts: Account[] }>().accounts;
    if (!listed.length) notJudged(`List accounts with withBalance answered no account: ${res.describe()}`);
    for (const a of listed) {
      expect(
        Array.isArray(a.balances) && a.balances.length > 0,
        because(
          `account ${a.resourceId}: withBalance=true under balance access should give balances; the account has none`,
        ),
      ).toBe(true);
    }
  },
);

test(
  'the balances List accounts and account detail bring with withBalance=true are typed as balances',
  req('accounts.list.with-balance-balances'),
  async ({ accounts, consent }) => {
    const list = await accounts.list(consent.consentId, { query: { withBalance: true } });
    // Whether the query is taken at all is accounts.list.with-balance-accepted's.
    requireSuccess(list, 'accounts.list.with-balance-accepted', 'List accounts with withBalance=true');
    const answers: { where: string; account?: Account }[] =
      list
        .json<{ accounts?: Account[] }>()
        .accounts?.map((account) => ({ where: `${list.label}: account ${account.resourceId}`, account })) ?? [];
    for (const a of consent.accounts) {
      const detail = await accounts.detail(consent.consentId, a.resourceId, { query: { withBalance: true } });
      requireSuccess(detail, 'accounts.list.with-balance-accepted', 'account detail with withBalance=true');
      answers.push({ where: detail.label, account: detail.json<{ account?: Account }>().account });
    }
    // withBalance may be ignored: an account without balances has nothing to type.
    const given = answers.filter((x) => x.account?.balances !== undefined);
    test.skip(
      !given.length,
      'not judged: no account of List accounts or account detail carried balances (withBalance may be ignored)',
    );
    for (const { where, account } of given) {
      const balances: unknown = account!.balances;
      expect
        .soft(
          Array.isArray(balances),
          because(`${where}: balances is an array of Balance; got ${JSON.stringify(balances)}`),
        )
        .toBe(true);
      if (!Array.isArray(balances)) continue;
      for (const [i, b] of balances.entries())
        await expect.soft(b, because(`${where}: balances[${i}]`)).toMatchSchema('accounts/balance');
    }
  },
);
