import type { FastifyInstance } from 'fastify';
import { accountsOf } from '../accounts/service.js';
import type { Fault } from './fault.js';

/**
 * The date filter of the transaction list applied to booked entries only (by their booking date):
 * a pending entry, which has none, comes with every list whatever dateFrom and dateTo say.
 */
function pendingIgnoresDates(app: FastifyInstance): void {
  const service = accountsOf(app);
  const select = service.select.bind(service);
  service.select = (consent, account, q) => {
    const chosen = select(consent, account, q);
    if (q.entryReferenceFrom !== undefined || q.deltaList || q.bookingStatus === 'booked') return chosen;
    const every = select(consent, account, { ...q, dateFrom: '1970-01-01', dateTo: '9999-12-31' });
    return { booked: chosen.booked, pending: every.pending };
  };
}

const faults: Fault[] = [
  {
    id: 'accounts.pending-ignores-dates',
    description:
      'dateFrom and dateTo filter booked entries only: every pending entry of the account comes with any period',
    breaks: ['accounts.transactions.pending-entry-date'],
    install: pendingIgnoresDates,
  },
];

export default faults;
