import type { Fault } from './fault.js';
import { beforeHandler, rewriteJson } from '../hooks.js';

// A fault that sits between the hand-written checks' points and that only the generated phase
// (tests/direct-debit/properties/) finds: the hand-written check tries one other currency (USD), and
// its bodies carry one remittance line.

const CREATE = /^\/iso\/beta\/payments\/sepa-direct-debit$/;
const GET = /^\/iso\/payments\/:paymentId$/;

/** The currencies the faulty bank refuses: a list of the usual ones instead of EUR alone. */
const REFUSED = new Set(['USD', 'GBP', 'CHF']);

const faults: Fault[] = [
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
