import { beforeGuard, beforeHandler } from '../hooks.js';
import { TRANSACTIONS } from './accounts-shared.js';
import type { Fault } from './fault.js';

// A fault on input outside what the specification defines, which only the generated phase's
// robustness properties (tests/accounts/properties/robustness.spec.ts) send: a malformed query
// parameter of one read; and one only its header rule breaks (tests/headers/properties/
// header-rule-refusals.spec.ts) send: a Consent-ID near the test's own. The hand-written checks
// pass each (they send a Consent-ID of their own making, unrelated to any issued one).

const faults: Fault[] = [
  {
    id: 'accounts.transactions-date-to-server-error',
    caughtBy: 'properties',
    description:
      'the transaction list parses dateTo before checking it: a dateTo that is no ISO date is answered 500 (a malformed dateFrom is still refused with 400)',
    breaks: ['accounts.robustness.query'],
    install: (app) =>
      beforeHandler(app, { method: 'GET', route: TRANSACTIONS }, (req) => {
        const { dateTo } = req.query as Record<string, unknown>;
        if (dateTo !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(String(dateTo)))
          throw new RangeError(`Invalid time value: ${String(dateTo)}`);
      }),
  },
  {
    id: 'accounts.consent-id-matched-by-prefix',
    caughtBy: 'properties',
    description:
      "an account read's Consent-ID is looked up by its first eight characters: an id the bank never issued that starts as an issued one of the same TPP (a character changed after the eighth, one dropped or appended) reads under that consent",
    breaks: ['accounts.consent.unknown'],
    install: (app) =>
      beforeGuard(app, { route: /\/accounts(\/|$)/ }, (req) => {
        const id = req.headers['consent-id'];
        if (typeof id !== 'string' || id.length < 8 || app.sandbox.consents.has(id)) return;
        const issued = [...app.sandbox.consents.keys()].find((k) => k.slice(0, 8) === id.slice(0, 8));
        if (issued) req.headers['consent-id'] = issued;
      }),
  },
];

export default faults;
