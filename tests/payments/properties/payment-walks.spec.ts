import fc from 'fast-check';
import { label, SERVICES } from '../../../harness/areas/payments.js';
import { runProperty } from '../../../harness/properties/run.js';
import { claimedCombinations } from '../../../harness/properties/payments.js';
import { freshModel, walkSteps } from '../../../harness/properties/payments-walk.js';
import { req, test } from '../../../harness/properties/test.js';
import { dependsOnControl } from '../../../harness/expect.js';
import { Blocked, TargetBroken } from '../../../harness/http/broken.js';

// Generated: walks over one payment of each claimed service (read its status, read it, authorise it,
// try another authorisation, cancel it, in any order), checked against the model of the state
// tables: each status shown is allowed after the last, nothing moves back, forbidden steps refused.
for (const service of SERVICES) {
  test(
    `generated: walks over a ${service} payment keep to the state tables`,
    req('payments.states.walk'),
    async ({ payments, depth, exchanges }) => {
      const claimed = claimedCombinations(payments).filter((c) => c.service === service);
      test.skip(!claimed.length, `not claimed: the profile claims no product of ${service}`);
      // The walk's refusals (another authorisation after the SCA ended, a cancel in a final status)
      // stand beside the same requests accepted where the tables allow them.
      dependsOnControl('payments.authorisations.create');
      dependsOnControl('payments.cancel.response');
      await runProperty({
        name: `a walk over a ${service} payment keeps to the state tables`,
        requirement: 'payments.states.walk',
        arbitrary: fc.record({
          combination: fc.constantFrom(...claimed),
          steps: fc.commands(walkSteps(), { maxCommands: depth.walkLength }),
        }),
        check: async ({ combination, steps }) => {
          const { basePath, res } = await payments.initiated(combination);
          const initial = (res.body as { transactionStatus?: string } | undefined)?.transactionStatus;
          await fc
            .asyncModelRun(() => ({ model: freshModel(initial), real: { payments, basePath } }), steps)
            .catch((e: Error) => {
              // A blocked step or a broken target stays what it is: no counterexample.
              if (e instanceof Blocked || e instanceof TargetBroken) throw e;
              throw new Error(`${label(combination)}: ${e.message}`);
            });
        },
        exchanges,
        depth,
        runs: depth.walks,
        distinct: false,
      });
    },
  );
}
