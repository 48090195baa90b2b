import { brokenBicFis, needsBicFi } from '../../../harness/properties/headers-rule-breaks.js';
import { Binder, claimedFor, headerRefused, onOperations, req, test } from '../../../harness/properties/headers.js';
import { runProperty } from '../../../harness/properties/run.js';

// Generated: X-BicFi values breaking a rule the format properties leave unbroken, near the target's
// valid value, judged as their hand-written check judges them (tests/headers/bicfi.spec.ts) and as
// header-refusals.spec.ts judges its values: refused (a 4xx carrying no data), nothing changed,
// beside the same call with the valid value accepted.

test(
  'generated: every operation requiring X-BicFi called with one off the BIC pattern refuses it',
  req('headers.x-bicfi.pattern'),
  async ({ operations, target, depth, exchanges }) => {
    const binder = new Binder(operations);
    await runProperty({
      name: 'an X-BicFi off the BIC pattern is refused (a 4xx carrying no data) and changes nothing, beside the valid one accepted',
      requirement: 'headers.x-bicfi.pattern',
      arbitrary: onOperations(claimedFor(target, needsBicFi, depth), brokenBicFis(target.bicFi)),
      check: headerRefused(binder),
      exchanges,
      depth,
    });
  },
);
