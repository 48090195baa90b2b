import { brokenStarts, startCases, startExamples } from '../../../harness/properties/authorisations-cases.js';
import {
  claimedStarts,
  labelsByOperation,
  probeMethods,
  req,
  startAccepted,
  startRefused,
  test,
} from '../../../harness/properties/authorisations.js';
import { runProperty } from '../../../harness/properties/run.js';
import { dependsOnControl } from '../../../harness/expect.js';
import type { OperationGroup } from '../../../harness/operations.js';

// Generated: starts of an authorisation (update PSU data that selects a method) on every claimed
// operation that starts one (a consent's, a payment's on every claimed service and product, a
// cancellation's, a basket's), each case on a fresh authorisation: any offered method starts it;
// an id near the offered ones, or a value of another type, is refused and leaves it received,
// beside an offered method accepted on the same operation, service and product in the same test.
// The depth's cases per operation (a case is three to five requests), the valid starts beginning
// with every operation on each of its services and products and with every method.

const GROUPS: OperationGroup[] = ['consents', 'payments', 'signing-baskets'];

for (const group of GROUPS) {
  test(
    `${group}: generated starts of an authorisation with any offered method are accepted`,
    req('authorisations.start.any-method'),
    async ({ operations, target, depth, exchanges }) => {
      const targets = claimedStarts(target, group);
      const byOperation = labelsByOperation(targets);
      const methods = await probeMethods(operations, targets);
      await runProperty({
        name: `a start of a ${group} authorisation with any offered method is accepted and leaves it no longer received`,
        requirement: 'authorisations.start.any-method',
        arbitrary: startCases(byOperation, methods),
        // Every operation on each of its services and products and with every method first.
        examples: startExamples(byOperation, methods),
        check: startAccepted(operations, targets),
        exchanges,
        depth,
        runs: depth.cases * byOperation.length,
      });
    },
  );

  test(
    `${group}: generated starts of an authorisation with a method not offered are refused`,
    req('authorisations.start.unknown-method'),
    async ({ operations, target, depth, exchanges }) => {
      const targets = claimedStarts(target, group);
      // Its controls: each operation started with an offered method, accepted in the same test before its first case.
      for (const op of new Set(targets.map((t) => t.op))) dependsOnControl(op.control);
      const byOperation = labelsByOperation(targets);
      await runProperty({
        name: `a start of a ${group} authorisation with an id near the offered ones, or of another type, is refused and leaves it received`,
        requirement: 'authorisations.start.unknown-method',
        arbitrary: brokenStarts(byOperation, await probeMethods(operations, targets)),
        check: startRefused(operations, targets),
        exchanges,
        depth,
        runs: depth.cases * byOperation.length,
      });
    },
  );
}
