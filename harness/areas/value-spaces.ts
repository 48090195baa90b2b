import type { Profile } from '../config/profile.js';
import type { ApiResponse } from '../http/response.js';
import { daysFromToday, isBusinessDay } from '../values/dates.js';
import type { Json } from '../values/json.js';

/*
 * What every bank must accept and what a bank may decline, per operation and field: one source for
 * the generated valid cases (harness/properties/*-cases.ts, judged in judge.ts) and the hand-written
 * checks. A value the schema allows is not thereby a value every bank must take: the sentences force
 * the baseline (the body every check sends), and a bank may decline the rest of a field's space
 * with a business code of the reference facts. A case in that space refused with its code (a 4xx
 * of the entry's statuses, a tppMessage of its codes, no id: nothing created) is declined, not
 * failed, as long as the baseline of the same operation is accepted; a refusal of a must-accept
 * value still fails. The profile narrows each space (the option named), so that a bank that
 * accepts more is judged on more.
 */

/** One freedom: what must be accepted, what may be declined and how, and what it rests on. */
export interface MayDecline {
  id: string;
  operation: 'create consent' | 'initiate payment' | 'create direct debit' | 'create consent, initiate payment';
  field: string;
  /** What every bank must accept (the hand-written baseline's value and what the sentences force). */
  mustAccept: string;
  /** What a bank may decline. */
  mayDecline: string;
  /** The statuses and tppMessage codes a decline carries. */
  statuses: readonly number[];
  codes: readonly string[];
  /** The profile option that narrows the space, if one does. */
  option?: string;
  /** The sentence of the specification and the fact of the reference facts it rests on. */
  rests: string;
}

export const MAY_DECLINE = {
  combinedSession: {
    id: 'consents.combined-session',
    operation: 'create consent',
    field: 'combinedServiceIndicator',
    mustAccept: 'false (a consent for account information alone)',
    mayDecline: 'true, by a bank that offers no combined AIS and PIS session',
    statuses: [400],
    codes: ['SESSIONS_NOT_SUPPORTED'],
    option: 'consents.combinedSessions',
    rests:
      'specification: "| combinedServiceIndicator | boolean | yes | true if a payment initiation is addressed in the same session |" (what true means, not that a bank offers it); reference facts: "400 | ... AIS also SESSIONS_NOT_SUPPORTED"',
  },
  otherAccounts: {
    id: 'consents.other-accounts',
    operation: 'create consent',
    field: 'access.balances[], access.transactions[]',
    mustAccept: 'empty lists (the accounts the bank offers) and references to accounts the PSU holds',
    mayDecline: 'references to accounts the PSU does not hold (the suite cannot tell which it holds)',
    statuses: [400, 403, 404],
    codes: ['RESOURCE_UNKNOWN'],
    rests:
      'specification: "It contains `balances` and `transactions`, each an array of account references. A reference has `iban`, `maskedPan` or `pan`, and an optional `currency`." (the form of a reference, not which accounts); reference facts: RESOURCE_UNKNOWN "the addressed resource is unknown", 400, 403 and 404',
  },
  executionHorizon: {
    id: 'payments.execution-horizon',
    operation: 'initiate payment',
    field: 'requestedExecutionDate, startDate',
    mustAccept: "a business day up to the profile's horizon (payments.executionHorizonDays) ahead",
    mayDecline: 'a date beyond the horizon',
    statuses: [400],
    codes: ['EXECUTION_DATE_INVALID'],
    option: 'payments.executionHorizonDays',
    rests:
      'specification: "| requestedExecutionDate | string | no | ISO date |" (no horizon given); reference facts: "A requestedExecutionDate the bank cannot execute (in the past) is refused with 400 `EXECUTION_DATE_INVALID`"',
  },
  nonBusinessDay: {
    id: 'payments.non-business-day',
    operation: 'initiate payment',
    field: 'requestedExecutionDate, startDate',
    mustAccept: 'a business day (not a Saturday, a Sunday or a TARGET2 closing day)',
    mayDecline: 'a Saturday, a Sunday or a TARGET2 closing day',
    statuses: [400],
    codes: ['EXECUTION_DATE_INVALID'],
    option: 'payments.nonBusinessDays',
    rests:
      'specification: "| requestedExecutionDate | string | no | ISO date |"; reference facts: "A requestedExecutionDate the bank cannot execute ... is refused with 400 `EXECUTION_DATE_INVALID`"',
  },
  amountForm: {
    id: 'payments.amount-form',
    operation: 'initiate payment',
    field: 'instructedAmount.amount',
    mustAccept: 'an amount with two decimals ("12.50")',
    mayDecline: 'the other forms of Berlin Group\'s pattern ("12", "12.5")',
    statuses: [400],
    codes: ['FORMAT_ERROR'],
    option: 'payments.amountForms',
    rests:
      'specification: "| instructedAmount | object (amount) | yes | `currency`, `amount` (string) |" (no pattern); reference facts: "Berlin Group amounts match `-?[0-9]{1,14}(\\.[0-9]{1,3})?`: "12", "12.5" and "12.50" are all valid" (Berlin Group\'s, not the specification\'s)',
  },
  collectionLeadTime: {
    id: 'direct-debit.lead-time',
    operation: 'create direct debit',
    field: 'requestedExecutionDate',
    mustAccept: "a due date up to the profile's lead time (directDebit.leadTimeDays, 14 days by default) ahead",
    mayDecline: 'a collection due later than the lead time',
    statuses: [400],
    codes: ['EXECUTION_DATE_INVALID'],
    option: 'directDebit.leadTimeDays',
    rests:
      'specification: "| requestedExecutionDate | string(date) | ISO 8601 |" (no lead time given); the SEPA Core rulebook takes a collection up to 14 calendar days before its due date; reference facts: "400 | ... PIS also PAYMENT_FAILED, EXECUTION_DATE_INVALID"',
  },
  affiliatePsu: {
    id: 'headers.affiliated-bank-psu',
    operation: 'create consent, initiate payment',
    field: "X-AffiliatedASPSP-ID with the PSU and debtor account of X-BicFi's bank",
    mustAccept: 'the header naming a bank the directory lists as affiliated (never refused as the header)',
    mayDecline: "the PSU or the debtor account of X-BicFi's bank, which the affiliated bank need not hold",
    statuses: [400, 401, 403, 404],
    codes: ['RESOURCE_UNKNOWN', 'PSU_CREDENTIALS_INVALID'],
    rests:
      'specification: "| X-AffiliatedASPSP-ID | string | ID of an affiliated bank related to X-BicFi; on create consent and initiate payment |" (the header names an affiliate, not that it holds the parent\'s PSU); reference facts: 401 PSU_CREDENTIALS_INVALID, 400/403/404 RESOURCE_UNKNOWN',
  },
} as const satisfies Record<string, MayDecline>;

/** Every entry, for the docs and the self-tests. */
export const MAY_DECLINE_ENTRIES: readonly MayDecline[] = Object.values(MAY_DECLINE);

const TWO_DECIMALS = /^-?[0-9]{1,14}\.[0-9]{2}$/;

/** Whether a date is past the payment horizon or on a day a bank may decline, under the profile. */
function dateDeclines(profile: Profile, date: unknown): MayDecline[] {
  if (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return [];
  const found: MayDecline[] = [];
  if (daysFromToday(date) > profile.payments.executionHorizonDays) found.push(MAY_DECLINE.executionHorizon);
  if (profile.payments.nonBusinessDays === 'may-decline' && !isBusinessDay(date))
    found.push(MAY_DECLINE.nonBusinessDay);
  return found;
}

/** The freedoms a payment body (single, bulk or periodic) falls in: dates and amounts. */
export function paymentDeclines(profile: Profile, body: Json): MayDecline[] {
  const found = [...dateDeclines(profile, body.requestedExecutionDate), ...dateDeclines(profile, body.startDate)];
  const amounts = Array.isArray(body.payments)
    ? body.payments.map((p) => (p as Json).instructedAmount)
    : [body.instructedAmount];
  if (
    profile.payments.amountForms === 'two-decimals' &&
    amounts.some((a) => !TWO_DECIMALS.test(String((a as Json | undefined)?.amount)))
  )
    found.push(MAY_DECLINE.amountForm);
  return found;
}

const hasReferences = (list: unknown) => Array.isArray(list) && list.length > 0;

/** The freedoms a create-consent body falls in: a combined session, references to accounts. */
export function consentDeclines(profile: Profile, body: Json): MayDecline[] {
  const access = (body.access ?? {}) as Json;
  return [
    ...(body.combinedServiceIndicator === true && profile.consents.combinedSessions !== 'offered'
      ? [MAY_DECLINE.combinedSession]
      : []),
    ...(hasReferences(access.balances) || hasReferences(access.transactions) ? [MAY_DECLINE.otherAccounts] : []),
  ];
}

/** The freedoms a direct debit body falls in: a due date beyond the lead time. */
export function directDebitDeclines(profile: Profile, body: Json): MayDecline[] {
  const date = body.requestedExecutionDate;
  return typeof date === 'string' && daysFromToday(date) > profile.directDebit.leadTimeDays
    ? [MAY_DECLINE.collectionLeadTime]
    : [];
}

/** The tppMessage codes of an answer. */
const codesOf = (res: ApiResponse): string[] => {
  const messages = (res.body as { tppMessages?: unknown } | undefined)?.tppMessages;
  return Array.isArray(messages) ? messages.map((m) => String((m as { code?: unknown })?.code)) : [];
};

/**
 * The freedom an answer declines the request by, of those it falls in: a 4xx of its statuses,
 * carrying one of its codes and no `member` (the id of a resource: nothing created); undefined when
 * the answer is no such decline.
 */
export function declinedBy(res: ApiResponse, declines: readonly MayDecline[], member: string): MayDecline | undefined {
  if (res.status < 400 || res.status >= 500) return undefined;
  if (new RegExp(`"${member}"\\s*:`).test(JSON.stringify(res.body ?? ''))) return undefined;
  const codes = codesOf(res);
  return declines.find((d) => d.statuses.includes(res.status) && d.codes.some((c) => codes.includes(c)));
}

/** How a decline is told in a test's annotations and a failure. */
export const describeDecline = (d: MayDecline): string =>
  `${d.id}: a bank may decline ${d.field} (${d.mayDecline}) with ${d.statuses.join('/')} ${d.codes.join(' or ')}, while it accepts ${d.mustAccept}`;
