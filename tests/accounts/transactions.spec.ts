import { isoDate } from '../../harness/values/dates.js';
import { requireSuccess } from '../../harness/http/broken.js';
import type { ApiResponse } from '../../harness/http/response.js';
import { disagreements } from '../../harness/values/json.js';
import { notJudged } from '../../harness/test.js';
import {
  because,
  downloadLink,
  expect,
  mergePages,
  req,
  test,
  type Account,
  type AccountsClient,
  type Transaction,
  type TransactionAnswer,
  type TransactionList,
  eachAccount,
} from '../../harness/areas/accounts.js';

// Transaction list (query table of section C) and transaction detail.

const keyOf = (t: Transaction) => t.transactionId ?? t.entryReference ?? JSON.stringify(t);
const booked = (l: TransactionList) => l.transactions.booked ?? [];
const pending = (l: TransactionList) => l.transactions.pending ?? [];
const WINDOW = -120;
/** The Transaction fields the specification lists (Resources > Account, balance, transaction). */
const TRANSACTION_FIELDS = [
  'transactionId',
  'creditorName',
  'creditorAccount',
  'debtorName',
  'debtorAccount',
  'transactionAmount',
  'balanceAfterTransaction',
  'bookingDate',
  'valueDate',
  'remittanceInformationUnstructured',
  'mandateId',
  'bankTransactionCode',
] as const;

/** The account with the most booked entries over the window, and that list (bookingStatus both). */
async function busiest(
  accounts: AccountsClient,
  consentId: string,
  list: Account[],
): Promise<{ account: Account; all: TransactionList }> {
  let best: { account: Account; all: TransactionList } | undefined;
  for (const account of list) {
    const all = await accounts.transactionsOf(consentId, account.resourceId, {
      bookingStatus: 'both',
      dateFrom: isoDate(WINDOW),
    });
    if (!best || booked(all).length > booked(best.all).length) best = { account, all };
  }
  return best!;
}

test(
  'the transaction list answers the account iban, booked and pending entries and the account link',
  req('accounts.transactions.shape'),
  async ({ accounts, consent }) => {
    for (const a of eachAccount(consent)) {
      // Every page of the list (_links.next), each an answer of this shape.
      for (const res of await accounts.transactionPages(consent.consentId, a.resourceId, {
        bookingStatus: 'both',
        dateFrom: isoDate(-30),
      })) {
        await expect(res).toSucceed();
        await expect(res).toMatchSchema('accounts/transaction-list');
        // account and its iban are listed, not required (their presence is accounts.transactions.complete):
        // judged where both the answer and the account carry an iban.
        const iban = res.json<TransactionAnswer>().account?.iban;
        if (a.iban && iban !== undefined)
          expect(iban, because(`${res.label}: account.iban must be the account's iban`)).toBe(a.iban);
      }
    }
  },
);

test(
  'the transaction list names its account, and every transaction carries the fields listed for a Transaction',
  req('accounts.transactions.complete'),
  async ({ accounts, consent }) => {
    for (const a of eachAccount(consent)) {
      // Every page of the list (_links.next) names its account and carries complete entries.
      for (const res of await accounts.transactionPages(consent.consentId, a.resourceId, {
        bookingStatus: 'both',
        dateFrom: isoDate(-30),
      })) {
        requireSuccess(res, 'accounts.transactions.shape', `read the transaction list of account ${a.resourceId}`);
        const body = res.json<TransactionAnswer>();
        expect
          .soft(body.account?.iban, because(`${res.label}: the listed account (object with iban) should be given`))
          .toEqual(expect.any(String));
        const { booked = [], pending = [] } = body.transactions ?? {};
        for (const t of [...booked, ...pending])
          await expect.soft(t, res.label).toMatchSchema('accounts/transaction-complete');
        // bookingDate is listed for booked entries (pending ones carry none in the example).
        for (const t of booked)
          expect
            .soft(
              Object.keys(t),
              because(`${res.label}: booked entry ${String(t.transactionId)} should carry its bookingDate`),
            )
            .toContain('bookingDate');
      }
    }
  },
);

test(
  'bookingStatus is required and must be booked, pending or both',
  req('accounts.transactions.booking-status-required'),
  async ({ accounts, consent }) => {
    const id = consent.accounts[0].resourceId;
    // BOOKED is not here: the specification's case rule is about names ("Field, header and parameter
    // names are case-sensitive"), not values; accounts.transactions.booking-status-case (a SHOULD).
    for (const bookingStatus of [undefined, 'all', 'information']) {
      const res = await accounts.transactions(consent.consentId, id, { bookingStatus, dateFrom: isoDate(-30) });
      await expect(res, `bookingStatus ${bookingStatus ?? '(absent)'}`).toBeRefused();
    }
  },
);

test(
  'a bookingStatus value in another case (BOOKED) is refused',
  req('accounts.transactions.booking-status-case'),
  async ({ accounts, consent }) => {
    const id = consent.accounts[0].resourceId;
    const res = await accounts.transactions(consent.consentId, id, { bookingStatus: 'BOOKED', dateFrom: isoDate(-30) });
    await expect(res, 'bookingStatus BOOKED').toBeRefused();
  },
);

test(
  'a missing or unknown bookingStatus is answered 400',
  req('accounts.transactions.booking-status-required-code'),
  async ({ accounts, consent }) => {
    const id = consent.accounts[0].resourceId;
    for (const bookingStatus of [undefined, 'all', 'information']) {
      const res = await accounts.transactions(consent.consentId, id, { bookingStatus, dateFrom: isoDate(-30) });
      await expect.soft(res, `bookingStatus ${bookingStatus ?? '(absent)'}`).toBeRefused(400);
    }
  },
);

test(
  'dateFrom is required when no delta access is asked for',
  req('accounts.transactions.date-from-required'),
  async ({ accounts, consent }) => {
    const res = await accounts.transactions(consent.consentId, consent.accounts[0].resourceId, {
      bookingStatus: 'booked',
    });
    await expect(res, 'a transaction list without dateFrom, entryReferenceFrom and deltaList').toBeRefused();
  },
);

test(
  'dateFrom and dateTo select booked entries by booking date, both ends included',
  req('accounts.transactions.date-range'),
  async ({ accounts, consent }) => {
    const { account, all } = await busiest(accounts, consent.consentId, consent.accounts);
    const dates = [
      ...new Set(
        booked(all)
          .map((t) => t.bookingDate)
          .filter((d): d is string => !!d),
      ),
    ].sort();
    test.skip(dates.length < 3, 'the PSU has fewer than three booking dates in the last 120 days');
    const from = dates[Math.floor(dates.length / 3)];
    const to = dates[Math.floor((2 * dates.length) / 3)];
    const got = await accounts.transactionsOf(consent.consentId, account.resourceId, {
      bookingStatus: 'booked',
      dateFrom: from,
      dateTo: to,
    });
    const outside = booked(got).filter((t) => !t.bookingDate || t.bookingDate < from || t.bookingDate > to);
    expect(
      outside.map((t) => `${keyOf(t)} booked ${t.bookingDate}`),
      because(`booked entries of dateFrom=${from}&dateTo=${to} must have a bookingDate within them`),
    ).toEqual([]);
    const want = booked(all)
      .filter((t) => t.bookingDate! >= from && t.bookingDate! <= to)
      .map(keyOf);
    const have = new Set(booked(got).map(keyOf));
    expect(
      want.filter((k) => !have.has(k)),
      because(`booked entries with a bookingDate from ${from} to ${to} (ends included) left out of the answer`),
    ).toEqual([]);
  },
);

test(
  'without dateTo the list runs to today',
  req('accounts.transactions.date-to-default'),
  async ({ accounts, consent }) => {
    const { account } = await busiest(accounts, consent.consentId, consent.accounts);
    const from = isoDate(-60);
    const open = await accounts.transactionsOf(consent.consentId, account.resourceId, {
      bookingStatus: 'booked',
      dateFrom: from,
    });
    const today = await accounts.transactionsOf(consent.consentId, account.resourceId, {
      bookingStatus: 'booked',
      dateFrom: from,
      dateTo: isoDate(0),
    });
    expect(
      booked(open).map(keyOf).sort(),
      because(`booked entries without dateTo must be those up to today (dateTo=${isoDate(0)})`),
    ).toEqual(booked(today).map(keyOf).sort());
  },
);

test(
  'bookingStatus booked gives exactly the booked entries, pending exactly the pending ones, both gives both',
  req('accounts.transactions.booking-status-filter'),
  async ({ accounts, consent }) => {
    // An account whose list holds both booked and pending entries: on any other the filter proves nothing.
    const query = (bookingStatus: string, accountId: string) =>
      accounts.transactionsOf(consent.consentId, accountId, { bookingStatus, dateFrom: isoDate(WINDOW) });
    let found: { account: Account; all: TransactionList } | undefined;
    for (const account of eachAccount(consent)) {
      // An empty booked or pending array may be left out (both are listed, neither required).
      const all = await query('both', account.resourceId);
      if (booked(all).length && pending(all).length) {
        found = { account, all };
        break;
      }
    }
    test.skip(!found, 'no account of the consent holds both booked and pending entries over the window');
    const { account, all } = found!;
    const keys = (l: Transaction[]) => l.map(keyOf).sort();
    // Every entry of each answer, for each value of the enum, against the list of both.
    const onlyBooked = await query('booked', account.resourceId);
    expect
      .soft(keys(booked(onlyBooked)), because('bookingStatus=booked must give exactly the booked entries of both'))
      .toEqual(keys(booked(all)));
    expect.soft(keys(pending(onlyBooked)), because('bookingStatus=booked must give no pending entries')).toEqual([]);
    const onlyPending = await query('pending', account.resourceId);
    expect
      .soft(keys(pending(onlyPending)), because('bookingStatus=pending must give exactly the pending entries of both'))
      .toEqual(keys(pending(all)));
    expect.soft(keys(booked(onlyPending)), because('bookingStatus=pending must give no booked entries')).toEqual([]);
  },
);

test(
  'pending entries carry no bookingDate',
  req('accounts.transactions.pending-no-booking-date'),
  async ({ accounts, consent }) => {
    for (const a of eachAccount(consent)) {
      const list = await accounts.transactionsOf(consent.consentId, a.resourceId, {
        bookingStatus: 'pending',
        dateFrom: isoDate(-30),
      });
      const dated = pending(list).filter((t) => t.bookingDate !== undefined);
      expect(
        dated.map((t) => `${keyOf(t)} bookingDate ${t.bookingDate}`),
        because(`pending entries of account ${a.resourceId} must carry no bookingDate`),
      ).toEqual([]);
    }
  },
);

test(
  'the account link of a transaction list resolves to the account',
  req('accounts.transactions.account-link'),
  async ({ accounts, consent }) => {
    const a = consent.accounts[0];
    const list = await accounts.transactionsOf(consent.consentId, a.resourceId, {
      bookingStatus: 'booked',
      dateFrom: isoDate(-7),
    });
    const href = list.transactions._links?.account?.href;
    // Listed, not required: a link given must resolve; its presence is not judged.
    test.skip(!href, 'not judged: the transaction list gives no transactions._links.account (listed, not required)');
    const res = await accounts.read(consent.consentId, href!);
    await expect(res).toSucceed();
    const target = res.json<{ account?: Account }>().account;
    expect(
      target?.resourceId,
      because(`transactions._links.account (${href}) must lead to the account ${a.resourceId}`),
    ).toBe(a.resourceId);
    expect(target?.iban, because(`transactions._links.account (${href}) must lead to the account's iban`)).toBe(a.iban);
  },
);

test(
  'entryReferenceFrom gives the entries after the named entry',
  req('accounts.transactions.entry-reference-from'),
  async ({ accounts, consent }) => {
    test.skip(!accounts.deltaAccess, 'not claimed: the profile does not claim accounts.deltaAccess');
    const { account, all } = await busiest(accounts, consent.consentId, consent.accounts);
    const entries = booked(all).filter((t) => t.bookingDate);
    expect(
      entries.every((t) => typeof t.entryReference === 'string'),
      because('delta access is claimed, but booked entries carry no entryReference'),
    ).toBe(true);
    const dates = [...new Set(entries.map((t) => t.bookingDate!))].sort();
    test.skip(dates.length < 3, 'the PSU has fewer than three booking dates in the last 120 days');
    const pivot = entries.find((t) => t.bookingDate === dates[Math.floor(dates.length / 2)])!;
    const got = booked(
      await accounts.transactionsOf(consent.consentId, account.resourceId, {
        bookingStatus: 'booked',
        entryReferenceFrom: pivot.entryReference!,
      }),
    );
    const before = got.filter(
      (t) => t.entryReference === pivot.entryReference || (t.bookingDate && t.bookingDate < pivot.bookingDate!),
    );
    expect(
      before.map((t) => `${keyOf(t)} booked ${t.bookingDate}`),
      because(`entryReferenceFrom=${pivot.entryReference} (booked ${pivot.bookingDate}) must give no entry up to it`),
    ).toEqual([]);
    const have = new Set(got.map(keyOf));
    const later = entries.filter((t) => t.bookingDate! > pivot.bookingDate!).map(keyOf);
    expect(
      later.filter((k) => !have.has(k)),
      because(`entries booked after ${pivot.bookingDate} left out of entryReferenceFrom=${pivot.entryReference}`),
    ).toEqual([]);
  },
);

test(
  'deltaList is rejected, or a second deltaList repeats nothing of the first',
  req('accounts.transactions.delta-list'),
  async ({ accounts, consent }) => {
    test.skip(!accounts.deltaAccess, 'not claimed: the profile does not claim accounts.deltaAccess');
    const { account } = await busiest(accounts, consent.consentId, consent.accounts);
    const query = { bookingStatus: 'both', deltaList: true, dateFrom: isoDate(-30) };
    const [first, ...firstRest] = await accounts.transactionPages(consent.consentId, account.resourceId, query);
    // "may be rejected": any 4xx (the code is not shown); then there is no delta list to judge.
    if (first.status >= 400 && first.status < 500)
      notJudged(`the target rejects deltaList (allowed), so there is no delta list to judge: ${first.describe()}`);
    await expect(first).toSucceed();
    test.skip(
      downloadLink(first.json()) !== undefined,
      'not judged: the deltaList read is answered with a download link instead of entries',
    );
    const [second, ...secondRest] = await accounts.transactionPages(consent.consentId, account.resourceId, query);
    await expect(second).toSucceed();
    test.skip(
      downloadLink(second.json()) !== undefined,
      'not judged: the second deltaList read is answered with a download link instead of entries',
    );
    // Each report whole, every page of it (_links.next).
    const whole = (pages: ApiResponse[]) => {
      for (const p of pages)
        requireSuccess(p, 'accounts.transactions.shape', 'a page of the deltaList report (_links.next)');
      return mergePages(pages.map((p) => p.json<TransactionAnswer>())) as TransactionList;
    };
    const [one, two] = [whole([first, ...firstRest]), whole([second, ...secondRest])];
    const given = new Set([...booked(one), ...pending(one)].map(keyOf));
    const repeated = [...booked(two), ...pending(two)].map(keyOf).filter((k) => given.has(k));
    expect(
      repeated,
      because(
        `a second deltaList read must give only entries since the first report (${given.size} entries); these came again`,
      ),
    ).toEqual([]);
  },
);

test(
  'transaction detail holds the list entry under transactionsDetails',
  req('accounts.transaction.details'),
  async ({ accounts, consent }) => {
    const { account, all } = await busiest(accounts, consent.consentId, consent.accounts);
    const entries = [...booked(all).slice(-3), ...pending(all).slice(0, 2)].filter((t) => t.transactionId);
    // transactionId is listed, not required: with no entry carrying one there is no detail to ask for.
    test.skip(
      !entries.length,
      'not judged: the transaction list gives no entry with a transactionId (listed, not required)',
    );
    for (const entry of entries) {
      const res = await accounts.transaction(consent.consentId, account.resourceId, entry.transactionId!);
      await expect(res).toSucceed();
      await expect(res).toMatchSchema('accounts/transaction-details');
      const detail = res.json<{ transactionsDetails: Transaction }>().transactionsDetails;
      expect(
        detail.transactionId,
        because(`transactionsDetails of ${entry.transactionId} must be that transaction`),
      ).toBe(entry.transactionId);
      // The Transaction fields the specification lists, where both carry them: a bank may add fields
      // of its own, or give the detail fields the list leaves out.
      expect(
        disagreements(detail, entry, TRANSACTION_FIELDS),
        because(`transactionsDetails of ${entry.transactionId} must agree with the list entry`),
      ).toEqual([]);
    }
  },
);

test(
  'transaction detail of an unknown transactionId is refused',
  req('accounts.transaction.unknown'),
  async ({ accounts, consent }) => {
    const res = await accounts.transaction(
      consent.consentId,
      consent.accounts[0].resourceId,
      'obg-unknown-transaction-0000',
    );
    await expect(res, 'an unknown transactionId').toBeRefused();
  },
);
