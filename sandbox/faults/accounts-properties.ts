import { beforeHandler } from '../hooks.js';
import { TRANSACTIONS } from './accounts-shared.js';
import type { Fault } from './fault.js';

// A fault on input outside what the specification defines, which only the generated phase's
// robustness properties (tests/accounts/properties/robustness.spec.ts) send: a malformed query
// parameter of one read. The hand-written checks pass it.

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
];

export default faults;
