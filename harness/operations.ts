import { randomUUID } from 'node:crypto';
import { test as accountsTest } from './areas/accounts.js';
import { test as directDebitTest } from './areas/direct-debit.js';
import { test as directoryTest } from './areas/directory.js';
import { test as basketsTest } from './areas/signing-baskets.js';
import { OperationWorld } from './operations/world.js';
import { boxed, mergeTests } from './test.js';

// The header checks' entry: the operations table, the world that prepares every operation, and
// the rule generators over every operation a rule governs.
export { because, expect, req } from './test.js';
export * from './operations/table.js';
export * from './operations/claims.js';
export * from './operations/world.js';
export * from './operations/rules.js';
export * from './operations/header-rules.js';

/**
 * The test of the header checks: every area's clients, and `operations`, the prerequisites of
 * every operation for this test (merged by the harness's `mergeTests`, which keeps the
 * self-proof's declaration per case).
 */
export const test = mergeTests(directoryTest, accountsTest, basketsTest, directDebitTest).extend<{
  operations: OperationWorld;
}>({
  operations: boxed(async ({ directory, consents, accounts, recurring, payments, baskets, directDebit }, use) => {
    await use(
      new OperationWorld({
        directory,
        consents,
        accounts,
        recurring: () => recurring(),
        payments,
        baskets,
        directDebit,
      }),
    );
  }),
});

/** A fresh uuid, for header values. */
export const uuid = () => randomUUID();
