import { isoDay } from '../../spec/iso8601.js';
import { createHash } from 'node:crypto';
import { Faker, en, sv } from '@faker-js/faker';
import { composeIBAN } from 'ibantools';
import { CORPORATE, PRIVATE, type AccountPlan } from './account-plans.js';

/**
 * Deterministic PSU banking data: accounts, balances and a history of booked and pending
 * transactions. Everything derives from a hash of the PSU id, so any PSU id (a real user's
 * PSU_ID included) gets accounts, and the same PSU sees the same data on every run. A day's
 * entries derive from (PSU, account, calendar date), so a date's history does not move as time passes.
 */

export type BalanceType = 'closingBooked' | 'expected' | 'interimBooked';

export interface SeedAccount {
  /** Stable internal key (never shown: account ids are tokenised per consent). */
  key: string;
  iban: string;
  /** ISO 4217, or XXX for the multicurrency account. */
  currency: string;
  /** Currencies the account holds (one, or several for a multicurrency account). */
  holds: string[];
  product: string;
  cashAccountType: string;
  name: string;
  clearingNumber: string;
  ownerName: string;
}

export interface SeedTransaction {
  transactionId: string;
  /** Sortable: entries after an entry are those with a greater entryReference (delta access). */
  entryReference: string;
  /** The date the entry was made; the booking date of a booked entry. */
  entryDate: string;
  status: 'booked' | 'pending';
  valueDate: string;
  currency: string;
  /** Signed decimal string. */
  amount: string;
  creditorName?: string;
  creditorAccount?: { iban: string };
  debtorName?: string;
  debtorAccount?: { iban: string };
  remittanceInformationUnstructured: string;
  mandateId?: string;
  bankTransactionCode: string;
  /** Booked entries of a single-currency account: the booked balance after this entry. */
  balanceAfter?: string;
}

export interface SeedBalance {
  balanceType: BalanceType;
  currency: string;
  amount: string;
  referenceDate: string;
  lastChangeDateTime?: string;
}

export interface PsuBank {
  accounts: SeedAccount[];
  /** Every entry of the account up to `today`, oldest first (booked by booking date, then pending). */
  transactions(accountKey: string): SeedTransaction[];
  balances(accountKey: string): SeedBalance[];
}

const DAY = 86_400_000;
const addDays = (day: string, n: number) => isoDay(new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY));

/** First day of the generated history: the first of the month 13 months back (the opening balance is fixed per PSU and account). */
const historyStart = (today: string) => {
  const d = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() - 13);
  return isoDay(d);
};
/** Entries of the last days are still pending (entered, not yet booked). */
const PENDING_DAYS = 2;

const hashInt = (...parts: string[]) => createHash('sha256').update(parts.join('|')).digest().readUInt32BE(0);
const shortHash = (...parts: string[]) => createHash('sha256').update(parts.join('|')).digest('hex').slice(0, 20);

// One generator, reseeded for each (PSU, account, day): building a Faker per day is slow.
const shared = new Faker({ locale: [sv, en] });
const fakerFor = (...parts: string[]) => {
  shared.seed(hashInt(...parts));
  return shared;
};

const money = (cents: number) => {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};

/** A valid Swedish IBAN (ISO 13616 check digits by ibantools) from a clearing/bank code and digits. */
const seIban = (f: Faker, bank = '500') => composeIBAN({ countryCode: 'SE', bban: `${bank}${f.string.numeric(17)}` })!;
const counterpartyIban = (f: Faker) =>
  f.datatype.boolean({ probability: 0.8 })
    ? seIban(f, f.helpers.arrayElement(['500', '800', '600', '300', '120']))
    : composeIBAN({ countryCode: 'DE', bban: f.string.numeric(18) })!;

type Draft = Omit<
  SeedTransaction,
  'transactionId' | 'entryReference' | 'entryDate' | 'status' | 'valueDate' | 'balanceAfter'
>;

/** One day of one account being drawn: its generator, the day, and the account's own side filled in. */
interface DayEntries {
  f: Faker;
  /** The day of the month. */
  dom: number;
  day: string;
  psuKey: string;
  acc: SeedAccount;
  incoming(cur: string, cents: number, name: string, iban: string, text: string, code: string): void;
  outgoing(
    cur: string,
    cents: number,
    name: string,
    iban: string,
    text: string,
    code: string,
    mandateId?: string,
  ): void;
  /** One of the currencies the account holds. */
  cur(): string;
}

/** A salary account's day: the salary on the 25th, rent and power by direct debit, card purchases, the monthly saving. */
function salaryDay({ f, dom, day, psuKey, acc, incoming, outgoing }: DayEntries): void {
  if (dom === 25)
    incoming(
      'SEK',
      f.number.int({ min: 3_100_000, max: 3_400_000 }),
      f.company.name(),
      seIban(f, '800'),
      `Lön ${day.slice(0, 7)}`,
      'PMNT-RCDT-SALA',
    );
  if (dom === 27)
    outgoing(
      'SEK',
      1_150_000,
      'Bostadsrättsföreningen Linden',
      seIban(f, '120'),
      `Avgift ${day.slice(0, 7)}`,
      'PMNT-RDDT-ESDD',
      `MANDATE-${shortHash(psuKey, 'rent').slice(0, 10).toUpperCase()}`,
    );
  if (dom === 28)
    outgoing(
      'SEK',
      f.number.int({ min: 40_000, max: 120_000 }),
      'Nordisk Energi AB',
      seIban(f, '300'),
      'Elräkning',
      'PMNT-RDDT-ESDD',
      `MANDATE-${shortHash(psuKey, 'power').slice(0, 10).toUpperCase()}`,
    );
  // At least one card purchase a day, so the pending days always hold entries.
  const n = f.number.int({ min: 1, max: 2 });
  for (let i = 0; i < n; i++) {
    outgoing(
      'SEK',
      f.number.int({ min: 2_500, max: 50_000 }),
      f.company.name(),
      counterpartyIban(f),
      `Kortköp ${f.commerce.department()}`,
      'PMNT-CCRD-POSD',
    );
  }
  if (dom === 26) outgoing('SEK', 300_000, acc.ownerName, seIban(f), 'Månadssparande', 'PMNT-ICDT-BOOK');
}

/** A savings account's day: the monthly saving in, interest on the 31st. */
function savingsDay({ f, dom, acc, incoming }: DayEntries): void {
  if (dom === 26) incoming('SEK', 300_000, acc.ownerName, seIban(f), 'Månadssparande', 'PMNT-RCDT-BOOK');
  if (dom === 31)
    incoming(
      'SEK',
      f.number.int({ min: 1_000, max: 9_000 }),
      'Sandbox Bank Sverige AB',
      seIban(f),
      'Ränta',
      'PMNT-MCOP-INTR',
    );
}

/** A travel account's day: an occasional card purchase abroad, a transfer in on the 1st. */
function travelDay({ f, dom, acc, incoming, outgoing, cur }: DayEntries): void {
  if (f.datatype.boolean({ probability: 0.25 }))
    outgoing(
      cur(),
      f.number.int({ min: 500, max: 6_000 }),
      f.company.name(),
      counterpartyIban(f),
      `Card ${f.location.city()}`,
      'PMNT-CCRD-POSD',
    );
  if (dom === 1)
    incoming(
      cur(),
      f.number.int({ min: 10_000, max: 60_000 }),
      acc.ownerName,
      seIban(f),
      'Överföring',
      'PMNT-RCDT-BOOK',
    );
}

/** A business account's day: invoices paid and received, the insurance premium on the 12th. */
function businessDay({ f, dom, psuKey, acc, incoming, outgoing, cur }: DayEntries): void {
  const n = f.number.int({ min: 1, max: 3 });
  for (let i = 0; i < n; i++) {
    if (f.datatype.boolean())
      incoming(
        cur(),
        f.number.int({ min: 50_000, max: 2_500_000 }),
        f.company.name(),
        counterpartyIban(f),
        `Faktura ${f.string.numeric(6)}`,
        'PMNT-RCDT-ESCT',
      );
    else
      outgoing(
        cur(),
        f.number.int({ min: 20_000, max: 1_800_000 }),
        f.company.name(),
        counterpartyIban(f),
        `Leverantör ${f.string.numeric(6)}`,
        'PMNT-ICDT-ESCT',
      );
  }
  if (dom === 12)
    outgoing(
      cur(),
      f.number.int({ min: 90_000, max: 250_000 }),
      'Företagsförsäkring AB',
      seIban(f, '600'),
      'Försäkringspremie',
      'PMNT-RDDT-ESDD',
      `MANDATE-${shortHash(psuKey, acc.key, 'insurance').slice(0, 10).toUpperCase()}`,
    );
}

/** A reserve account's day: the tax payment on the 12th, the provision on the 5th. */
function reserveDay({ f, dom, acc, incoming, outgoing }: DayEntries): void {
  if (dom === 12)
    outgoing(
      'SEK',
      f.number.int({ min: 500_000, max: 1_500_000 }),
      'Skatteverket',
      seIban(f, '800'),
      'Skatteinbetalning',
      'PMNT-ICDT-ESCT',
    );
  if (dom === 5) incoming('SEK', 2_000_000, acc.ownerName, seIban(f), 'Avsättning', 'PMNT-RCDT-BOOK');
}

/** How each kind of account fills its days. */
const DAYS: Record<AccountPlan['profile'], (d: DayEntries) => void> = {
  salary: salaryDay,
  savings: savingsDay,
  travel: travelDay,
  business: businessDay,
  reserve: reserveDay,
};

/** The entries of one account on one day (deterministic from PSU, account and date). */
function entriesOfDay(psuKey: string, acc: SeedAccount, plan: AccountPlan, day: string): Draft[] {
  const f = fakerFor(psuKey, acc.key, day);
  const dom = Number(day.slice(8, 10));
  const out: Draft[] = [];
  const own = { iban: acc.iban };
  const incoming: DayEntries['incoming'] = (cur, cents, name, iban, text, code) =>
    out.push({
      currency: cur,
      amount: money(cents),
      debtorName: name,
      debtorAccount: { iban },
      creditorName: acc.ownerName,
      creditorAccount: own,
      remittanceInformationUnstructured: text,
      bankTransactionCode: code,
    });
  const outgoing: DayEntries['outgoing'] = (cur, cents, name, iban, text, code, mandateId) =>
    out.push({
      currency: cur,
      amount: money(-cents),
      creditorName: name,
      creditorAccount: { iban },
      debtorName: acc.ownerName,
      debtorAccount: own,
      remittanceInformationUnstructured: text,
      bankTransactionCode: code,
      ...(mandateId ? { mandateId } : {}),
    });
  const cur = () => f.helpers.arrayElement(acc.holds);
  DAYS[plan.profile]({ f, dom, day, psuKey, acc, incoming, outgoing, cur });
  return out;
}

function buildAccounts(
  psuKey: string,
  context: 'private' | 'corporate',
): { accounts: SeedAccount[]; plans: Map<string, AccountPlan> } {
  const f = fakerFor(psuKey, context, 'accounts');
  const ownerName = context === 'corporate' ? f.company.name() : f.person.fullName();
  const plans = new Map<string, AccountPlan>();
  const accounts = (context === 'corporate' ? CORPORATE : PRIVATE).map((plan, i) => {
    const clearing = f.helpers.arrayElement(['8327', '8105', '5001', '6789', '3300', '1234']);
    const key = `${context}-${i}`;
    plans.set(key, plan);
    return {
      key,
      iban: seIban(f, clearing.startsWith('8') ? '800' : clearing.slice(0, 3)),
      currency: plan.holds.length > 1 ? 'XXX' : plan.holds[0],
      holds: plan.holds,
      product: plan.product,
      cashAccountType: plan.cashAccountType,
      name: plan.name,
      clearingNumber: clearing,
      ownerName,
    };
  });
  return { accounts, plans };
}

/** An account's history as drawn up to `today`: its entries and the balances they leave. */
interface AccountHistory {
  transactions: SeedTransaction[];
  balances: SeedBalance[];
}

/** Per held currency: what the account had booked, pending, booked before the pending days, and its last change. */
interface Running {
  booked: Map<string, number>;
  pendingSum: Map<string, number>;
  closing: Map<string, number>;
  lastChange: Map<string, string>;
}

/** The closing, interim and expected balance of each held currency. */
function balancesOf(acc: SeedAccount, run: Running, start: string, today: string): SeedBalance[] {
  const { booked, pendingSum, closing, lastChange } = run;
  return acc.holds.flatMap((c) => [
    {
      balanceType: 'closingBooked' as const,
      currency: c,
      amount: money(closing.get(c)!),
      referenceDate: addDays(today, -PENDING_DAYS),
      // The closing balance last changed at the end of its reference day.
      lastChangeDateTime: `${addDays(today, -PENDING_DAYS)}T23:59:59+01:00`,
    },
    {
      balanceType: 'interimBooked' as const,
      currency: c,
      amount: money(booked.get(c)!),
      referenceDate: today,
      lastChangeDateTime: lastChange.get(c) ?? `${start}T08:00:00+01:00`,
    },
    {
      balanceType: 'expected' as const,
      currency: c,
      amount: money(booked.get(c)! + pendingSum.get(c)!),
      referenceDate: today,
      lastChangeDateTime: lastChange.get(c) ?? `${start}T08:00:00+01:00`,
    },
  ]);
}

/** The account's entries day by day from the history start to `today`, the running balances moved by each. */
function accountHistory(psuKey: string, acc: SeedAccount, plan: AccountPlan, today: string): AccountHistory {
  const start = historyStart(today);
  // The opening balance varies per PSU, account and history start, and is the same on every run.
  const booked = new Map(
    acc.holds.map((c) => [
      c,
      Math.round(plan.opening / acc.holds.length) + (hashInt(psuKey, acc.key, c, start) % 500_000),
    ]),
  );
  const run: Running = {
    booked,
    pendingSum: new Map(acc.holds.map((c) => [c, 0])),
    closing: new Map<string, number>(),
    lastChange: new Map<string, string>(),
  };
  const { pendingSum, closing, lastChange } = run;
  const transactions: SeedTransaction[] = [];
  const firstPending = addDays(today, -(PENDING_DAYS - 1));
  for (let day = start; day <= today; day = addDays(day, 1)) {
    if (day === firstPending) for (const [c, v] of booked) closing.set(c, v);
    const drafts = entriesOfDay(psuKey, acc, plan, day);
    drafts.forEach((d, i) => {
      const seq = String(i).padStart(3, '0');
      const status = day >= firstPending ? 'pending' : 'booked';
      const cents = Math.round(Number(d.amount) * 100);
      const t: SeedTransaction = {
        transactionId: `T${shortHash(psuKey, acc.key, day, seq).toUpperCase()}`,
        entryReference: `${day.replace(/-/g, '')}${seq}`,
        entryDate: day,
        status,
        valueDate: day,
        ...d,
      };
      if (status === 'booked') {
        booked.set(d.currency, booked.get(d.currency)! + cents);
        if (acc.holds.length === 1) t.balanceAfter = money(booked.get(d.currency)!);
        lastChange.set(
          d.currency,
          `${day}T${String(8 + (i % 9)).padStart(2, '0')}:${String((i * 7) % 60).padStart(2, '0')}:00+01:00`,
        );
      } else pendingSum.set(d.currency, pendingSum.get(d.currency)! + cents);
      transactions.push(t);
    });
  }
  if (!closing.size) for (const [c, v] of booked) closing.set(c, v);
  return { transactions, balances: balancesOf(acc, run, start, today) };
}

function buildBank(psuId: string, context: 'private' | 'corporate', today: string): PsuBank {
  const psuKey = shortHash('psu', psuId);
  const { accounts, plans } = buildAccounts(psuKey, context);
  const history = new Map<string, AccountHistory>();
  const of = (key: string) => {
    let h = history.get(key);
    if (!h) {
      const acc = accounts.find((a) => a.key === key);
      if (!acc) throw new Error(`no account ${key}`);
      h = accountHistory(psuKey, acc, plans.get(acc.key)!, today);
      history.set(key, h);
    }
    return h;
  };
  return { accounts, transactions: (k) => of(k).transactions, balances: (k) => of(k).balances };
}

const cache = new Map<string, PsuBank>();

/** The bank data of a PSU in a context, as of today (cached per PSU, context and day). */
export function psuBank(psuId: string, context: 'private' | 'corporate', today = isoDay(new Date())): PsuBank {
  const key = `${psuId}|${context}|${today}`;
  let bank = cache.get(key);
  if (!bank) {
    if (cache.size >= 200) cache.delete(cache.keys().next().value!);
    bank = buildBank(psuId, context, today);
    cache.set(key, bank);
  }
  return bank;
}
