import { isoDate } from '../../harness/values/dates.js';
import { requireSuccess } from '../../harness/http/broken.js';
import { notJudged } from '../../harness/test.js';
import {
  because,
  expect,
  req,
  test,
  type Balance,
  type TransactionAnswer,
  eachAccount,
} from '../../harness/areas/accounts.js';

// Balances: account.iban, balances[] with type, amount, dates.

test(
  'balances answer the account iban and balances of type, amount and dates',
  req('accounts.balances.shape'),
  async ({ accounts, consent }) => {
    for (const a of eachAccount(consent)) {
      const res = await accounts.balances(consent.consentId, a.resourceId);
      await expect(res).toSucceed();
      await expect(res).toMatchSchema('accounts/balances');
      // account and its iban are listed, not required (their presence is accounts.balances.complete):
      // judged where both the answer and the account carry an iban.
      const iban = res.json<{ account?: { iban?: string } }>().account?.iban;
      if (a.iban && iban !== undefined)
        expect(iban, because(`${res.label}: account.iban must be the account's iban`)).toBe(a.iban);
    }
  },
);

test(
  'the balance response names its account, and every balance carries the fields listed for a Balance',
  req('accounts.balances.complete'),
  async ({ accounts, consent }) => {
    for (const a of eachAccount(consent)) {
      const res = requireSuccess(
        await accounts.balances(consent.consentId, a.resourceId),
        'accounts.balances.shape',
        `read the balances of account ${a.resourceId}`,
      );
      const body = res.json<{ account?: { iban?: unknown }; balances?: Balance[] }>();
      expect
        .soft(body.account?.iban, because(`${res.label}: the listed account (object with iban) should be given`))
        .toEqual(expect.any(String));
      for (const b of body.balances ?? []) await expect.soft(b, res.label).toMatchSchema('accounts/balance-complete');
    }
  },
);

test(
  'every balanceType is one of the enumeration',
  req('accounts.balances.type-enum'),
  async ({ accounts, consent }) => {
    let judged = 0;
    for (const a of eachAccount(consent)) {
      const res = requireSuccess(
        await accounts.balances(consent.consentId, a.resourceId),
        'accounts.balances.shape',
        `read the balances of account ${a.resourceId}`,
      );
      const balances = res.json<{ balances?: Balance[] }>().balances;
      for (const b of Array.isArray(balances) ? balances : []) {
        judged++;
        await expect(b.balanceType).toMatchSchema('accounts/balance-type');
      }
    }
    if (!judged) notJudged('no account of the consent answered a balance: no balanceType to judge');
  },
);

test(
  'amounts of balances and transactions match the amount pattern',
  req('accounts.amounts.pattern'),
  async ({ accounts, consent }) => {
    let judged = 0;
    for (const a of eachAccount(consent)) {
      const read = requireSuccess(
        await accounts.balances(consent.consentId, a.resourceId),
        'accounts.balances.shape',
        `read the balances of account ${a.resourceId}`,
      );
      const balances = read.json<{ balances?: Balance[] }>().balances;
      for (const b of Array.isArray(balances) ? balances : []) {
        judged++;
        await expect(b.balanceAmount).toMatchSchema('common/amount');
      }
      // A list answered with a download link instead of its entries has no amounts to judge here.
      // Every page of the list (_links.next).
      for (const res of await accounts.transactionPages(consent.consentId, a.resourceId, {
        bookingStatus: 'both',
        dateFrom: isoDate(-30),
      })) {
        requireSuccess(res, 'accounts.transactions.shape', `read the transaction list of account ${a.resourceId}`);
        const { booked = [], pending = [] } = res.json<TransactionAnswer>().transactions ?? {};
        for (const t of [...booked, ...pending]) {
          judged++;
          await expect(t.transactionAmount).toMatchSchema('common/amount');
        }
      }
    }
    if (!judged) notJudged('no account of the consent answered a balance or a transaction: no amount to judge');
  },
);

test(
  'an account whose balances are held in more than one currency (a multicurrency account) gives currency XXX',
  req('accounts.account.multicurrency-xxx'),
  async ({ accounts, consent }) => {
    const multicurrency: string[] = [];
    for (const a of consent.accounts) {
      const res = requireSuccess(
        await accounts.balances(consent.consentId, a.resourceId),
        'accounts.balances.shape',
        `read the balances of account ${a.resourceId}`,
      );
      const held = [
        ...new Set(
          (res.json<{ balances?: Balance[] }>().balances ?? [])
            .map((b) => b.balanceAmount?.currency)
            .filter((c): c is string => typeof c === 'string'),
        ),
      ];
      if (held.length < 2) continue;
      multicurrency.push(a.resourceId);
      const detail = requireSuccess(
        await accounts.detail(consent.consentId, a.resourceId),
        'accounts.detail.shape',
        `read account ${a.resourceId}`,
      );
      // currency is listed, not required (its presence is accounts.list.complete): judged where given.
      for (const [where, currency] of [
        ['List accounts', a.currency],
        [detail.label, detail.json<{ account?: { currency?: string } }>().account?.currency],
      ] as const)
        if (currency !== undefined)
          expect
            .soft(
              currency,
              because(
                `${where}: account ${a.resourceId} holds balances in ${held.join(', ')}, a multicurrency account, whose currency is XXX`,
              ),
            )
            .toBe('XXX');
    }
    test.skip(
      !multicurrency.length,
      'not judged: no account of the consent holds balances in more than one currency (no multicurrency account)',
    );
  },
);
