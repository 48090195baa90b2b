import { isoDay } from '../../spec/iso8601.js';
import { isoDate } from '../../harness/values/dates.js';
import {
  because,
  expect,
  req,
  test,
  type Transaction,
  type TransactionList,
  eachAccount,
} from '../../harness/areas/accounts.js';

// Transaction list query, dateFrom row: "Booked entries use the booking date, pending entries the
// entry date". A pending entry carries no bookingDate and the specification names no field for its
// entry date, so the date a bank selects it by is seen only through the filter itself: whatever
// that date is, it is one date per entry, so lists of adjoining periods share no pending entry and
// together give the pending entries of the whole period, and each pending entry of a period lies in
// the list of exactly one of its days (dateFrom = dateTo = that day, both ends included).

const keyOf = (t: Transaction) => t.transactionId ?? t.entryReference ?? JSON.stringify(t);
const pending = (l: TransactionList) => l.transactions.pending ?? [];
const WINDOW = -120;
const DAY = 86_400_000;
const dayOf = (d: string) => Date.parse(`${d}T00:00:00Z`);

test(
  'dateFrom and dateTo select pending entries by one date of their own (the entry date), both ends included',
  req('accounts.transactions.pending-entry-date'),
  async ({ accounts, consent }) => {
    const from = isoDate(WINDOW);
    const to = isoDate(0);
    const list = (accountId: string, dateFrom: string, dateTo: string) =>
      accounts
        .transactionsOf(consent.consentId, accountId, { bookingStatus: 'pending', dateFrom, dateTo })
        .then((l) => pending(l).map(keyOf));
    // An account with pending entries over the window: on any other the filter proves nothing.
    let found: { accountId: string; all: string[] } | undefined;
    for (const a of eachAccount(consent)) {
      const all = await list(a.resourceId, from, to);
      if (all.length) {
        found = { accountId: a.resourceId, all };
        break;
      }
    }
    test.skip(!found, `no account of the consent holds pending entries from ${from} to ${to}`);
    const { accountId, all } = found!;
    const problems: string[] = [];
    /** The day each pending entry was found on, by halving the period down to single days. */
    const days = new Map<string, string[]>();
    const locate = async (a: string, b: string, entries: string[]): Promise<void> => {
      if (a === b) {
        for (const k of entries) days.set(k, [...(days.get(k) ?? []), a]);
        return;
      }
      const mid = isoDay(dayOf(a) + Math.floor((dayOf(b) - dayOf(a)) / DAY / 2) * DAY);
      const next = isoDay(dayOf(mid) + DAY);
      const [left, right] = [await list(accountId, a, mid), await list(accountId, next, b)];
      const both = left.filter((k) => right.includes(k));
      const lost = entries.filter((k) => !left.includes(k) && !right.includes(k));
      const extra = [...left, ...right].filter((k) => !entries.includes(k));
      if (both.length) problems.push(`${both.join(', ')}: in the lists of ${a}..${mid} and of ${next}..${b}`);
      if (lost.length)
        problems.push(`${lost.join(', ')}: in the list of ${a}..${b}, in neither ${a}..${mid} nor ${next}..${b}`);
      if (extra.length)
        problems.push(`${[...new Set(extra)].join(', ')}: in a list within ${a}..${b}, not in its list`);
      // Once the halves overlap, halving further only repeats the finding.
      if (both.length || extra.length) return;
      if (left.length) await locate(a, mid, left);
      if (right.length) await locate(next, b, right);
    };
    await locate(from, to, all);
    if (!problems.length)
      for (const k of all)
        if ((days.get(k) ?? []).length !== 1)
          problems.push(`${k}: in the single-day lists of ${(days.get(k) ?? []).join(', ') || 'no day'}`);
    expect(
      problems,
      because(
        `pending entries of account ${accountId} (bookingStatus=pending) must be selected by their entry date: ` +
          'one date each, so adjoining periods share none and each lies in exactly one single-day list (dateFrom = dateTo)',
      ),
    ).toEqual([]);
  },
);
