import fc from 'fast-check';
import { authoriseFirst, basketWalkSteps, freshBasketModel } from '../../../harness/properties/signing-baskets-walk.js';
import { req, test } from '../../../harness/properties/signing-baskets.js';
import { runProperty } from '../../../harness/properties/run.js';
import { dependsOnControl } from '../../../harness/expect.js';

// Generated: walks over one signing basket (read its status, read it, authorise it, try another
// authorisation, delete it before or after its authorisation, delete it again, in any order),
// checked against the model of the state tables: each status shown is allowed after the last,
// nothing moves back, a deleted basket stays gone, forbidden steps refused. Asking for basketPayment
// skips it, before its body, without a claimed payment to fill the basket with.
test(
  'generated: walks over a signing basket keep to the state tables',
  req('signing-baskets.states.walk'),
  async ({ baskets, basketPayment: _, depth, exchanges }) => {
    // The walk's refusals (another authorisation once the SCA ended, a delete once authorised or
    // deleted) stand beside the same requests accepted where the tables allow them.
    dependsOnControl('signing-baskets.authorisation.start');
    dependsOnControl('signing-baskets.delete.before-authorisation');
    await runProperty({
      name: 'a walk over a signing basket keeps to the state tables',
      requirement: 'signing-baskets.states.walk',
      arbitrary: fc.record({
        authorised: fc.boolean(),
        steps: fc.commands(basketWalkSteps(), { maxCommands: depth.walkLength }),
      }),
      check: async ({ authorised, steps }) => {
        const { basketId, res } = await baskets.createdBasket(1);
        const initial = (res.body as { transactionStatus?: string } | undefined)?.transactionStatus;
        const real = { baskets, basketId };
        const model = freshBasketModel(initial);
        if (authorised) await authoriseFirst(model, real);
        await fc.asyncModelRun(() => ({ model, real }), steps);
      },
      exchanges,
      depth,
      // Twice the depth's walks: a basket's walk is cheap (one payment, at most one SCA).
      runs: 2 * depth.walks,
      distinct: false,
    });
  },
);
