import type { Operation, OperationGroup } from './types.js';
import { ACCOUNTS } from './rows/accounts.js';
import { CONSENTS } from './rows/consents.js';
import { DIRECT_DEBIT } from './rows/direct-debit.js';
import { DIRECTORY } from './rows/directory.js';
import { PAYMENTS } from './rows/payments.js';
import { SIGNING_BASKETS } from './rows/signing-baskets.js';

/*
 * Every operation of the specification as data, one row each (its section's file in rows/): method,
 * path template (the profile's paths), the headers it requires and the groups of optional headers
 * it accepts ("Common request headers" and the endpoint tables), its schemas, the features that
 * claim it, its positive control (the requirement that judges its valid call) and its preparation:
 * how its valid call is made from the world's shared set-up (harness/operations/world.ts), once
 * per test and shared by every call of the test. A new operation is one new row.
 */

export * from './types.js';

/** The operations of sections A to E and H (section F's flow runs on the authorisation operations of B, D and E). */
export const OPERATIONS: readonly Operation[] = [
  ...DIRECTORY,
  ...CONSENTS,
  ...ACCOUNTS,
  ...PAYMENTS,
  ...SIGNING_BASKETS,
  ...DIRECT_DEBIT,
];

export const GROUPS: readonly OperationGroup[] = [
  'directory',
  'consents',
  'accounts',
  'payments',
  'signing-baskets',
  'direct-debit',
];

export const operation = (id: string): Operation => {
  const found = OPERATIONS.find((o) => o.id === id);
  if (!found) throw new Error(`no operation ${id} in harness/operations/table.ts`);
  return found;
};
