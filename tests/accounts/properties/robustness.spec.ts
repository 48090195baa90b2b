import { test } from '../../../harness/properties/headers.js';
import { claimedSubjects, robustProperty, type Subject } from '../../../harness/properties/robustness.js';
import { runProperty } from '../../../harness/properties/run.js';
import { req } from '../../../harness/test.js';
import { isoDate } from '../../../harness/values/dates.js';

// Generated robustness: the account reads under the test's authorised consent with their query
// parameters outside their forms (dateFrom, dateTo, bookingStatus, withBalance, entryReferenceFrom,
// deltaList and an unknown one: texts outside the set, near misses of a valid value, values of
// another parameter's form, a parameter repeated) and malformed and unknown account and
// transaction ids: never a 5xx; a refusal carries the error shape; an acceptance answers its
// schema. Each parameter of each read is tried first alone with a value outside its form.
const BALANCE = { withBalance: 'true' };
const TRANSACTIONS = {
  bookingStatus: 'booked',
  dateFrom: '2000-01-01',
  dateTo: isoDate(0),
  entryReferenceFrom: '1',
  deltaList: 'false',
  withBalance: 'true',
};

test(
  'generated robustness: any query and id of the account reads is refused with the error shape or taken, never a 5xx',
  req('accounts.robustness.query'),
  async ({ operations, target, depth, exchanges }) => {
    const subjects = claimedSubjects(target.profile, [
      { operation: 'accounts.list', query: BALANCE },
      { operation: 'accounts.detail', query: BALANCE, id: true },
      { operation: 'accounts.balances', query: {}, id: true },
      {
        operation: 'accounts.transactions',
        query: TRANSACTIONS,
        queryBase: { bookingStatus: 'booked', dateFrom: '2000-01-01' },
        id: true,
      },
      { operation: 'accounts.transaction', id: true },
    ] satisfies Subject[]);
    await runProperty({
      name: 'any query and id of the account reads is refused with the error shape or taken, never a 5xx',
      requirement: 'accounts.robustness.query',
      ...robustProperty(operations, target.profile, subjects, depth.cases),
      exchanges,
      depth,
    });
  },
);
