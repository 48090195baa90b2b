import type { Fault } from './fault.js';
import { BgError } from '../errors.js';
import { beforeHandler, rewriteJson } from '../hooks.js';

// A fault that sits between the hand-written checks' points and that only the generated phase
// (tests/direct-debit/properties/) finds: the hand-written check tries one other currency (USD), and
// its bodies carry one remittance line.

const CREATE = /^\/iso\/beta\/payments\/sepa-direct-debit$/;
const GET = /^\/iso\/payments\/:paymentId$/;

/** The currencies the faulty bank refuses: a list of the usual ones instead of EUR alone. */
const REFUSED = new Set(['USD', 'GBP', 'CHF']);

/** Whole days from today (UTC) to an ISO date. */
const daysAhead = (date: string) =>
  Math.round(
    (Date.parse(`${date}T00:00:00Z`) - Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`)) / 86_400_000,
  );

/** The due dates the faulty bank takes: at most this many days ahead (the baseline's, 5, is later). */
const SHORT_LEAD_DAYS = 2;

const faults: Fault[] = [
  {
    id: 'direct-debit.baseline-declined-as-lead-time',
    description: `a collection due more than ${SHORT_LEAD_DAYS} days ahead, the creditor's own body (due in 5) included, is declined with 400 EXECUTION_DATE_INVALID, within the lead time the profile claims (directDebit.leadTimeDays 14, the default): a must-accept due date refused with the business code, and a decline beside a refused baseline`,
    // Refusing the baseline, every check that makes it fails (the SHOULDs warn) or is blocked.
    breaks: [
      'direct-debit.create.response',
      'direct-debit.create.status-201',
      'direct-debit.create.sequence-types-accepted',
    ],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: CREATE }, (req) => {
        const date = (req.body as { requestedExecutionDate?: unknown } | undefined)?.requestedExecutionDate;
        if (typeof date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(date) && daysAhead(date) > SHORT_LEAD_DAYS)
          throw new BgError(400, 'EXECUTION_DATE_INVALID', `${date} is too far ahead`, 'requestedExecutionDate');
      }),
  },
  {
    id: 'direct-debit.currency-deny-list',
    caughtBy: 'properties',
    description:
      'a collection in USD, GBP or CHF is refused, but one in any other currency than EUR (SEK, JPY…) is taken and collected as EUR',
    breaks: ['direct-debit.create.currency-eur'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: CREATE }, (req) => {
        const amount = (req.body as { instructedAmount?: { currency?: unknown } } | undefined)?.instructedAmount;
        if (amount && typeof amount.currency === 'string' && !REFUSED.has(amount.currency)) amount.currency = 'EUR';
      }),
  },
  {
    id: 'direct-debit.get-first-remittance-line',
    caughtBy: 'properties',
    description: 'get payment answers the first remittance line only (a second line sent is dropped)',
    breaks: ['direct-debit.get.fields'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: GET }, (body: { remittanceInformationUnstructuredArray?: unknown }) => {
        const lines = body.remittanceInformationUnstructuredArray;
        if (Array.isArray(lines)) body.remittanceInformationUnstructuredArray = lines.slice(0, 1);
      }),
  },
];

export default faults;
