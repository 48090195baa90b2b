import fc from 'fast-check';
import { firstCancellationAuthorised } from '../../../harness/areas/payments.js';
import { cancellationWalkSteps, walkCancellation } from '../../../harness/properties/payments-cancellation-walk.js';
import { claimedCombinations } from '../../../harness/properties/payments.js';
import { runProperty } from '../../../harness/properties/run.js';
import { req, test } from '../../../harness/properties/test.js';
import { dependsOnControl } from '../../../harness/expect.js';

// Generated: walks over a payment's cancellation (a payment of any claimed kind, authorised first or
// not, cancelled; then read its status, read it, authorise the cancellation, read that
// authorisation's SCA status, list the cancellation authorisations, try another cancellation
// authorisation, cancel it again, in any order), checked against the model of the state tables:
// each status shown is allowed after the last, nothing moves back, a final status stays, every
// cancellation authorisation is listed and its ended SCA stays ended, forbidden steps refused.
test(
  'generated: walks over a payment cancellation keep to the state tables',
  req('payments.cancel.states.walk'),
  async ({ payments, depth, exchanges }) => {
    const claimed = claimedCombinations(payments);
    test.skip(!claimed.length, 'not claimed: the profile claims no payment service and product');
    // Cancellation authorisations are tried only where the profile claims them (a claimed product
    // in payments.cancellationAuthorisation, feature payments.cancellation-authorisation).
    const authorisations = firstCancellationAuthorised(payments.target) !== undefined;
    const authorisable = claimed.filter((c) => authorisations && payments.needsCancellationAuthorisation(c));
    const atOnce = claimed.filter((c) => !authorisable.includes(c));
    // The walk's refusals (another cancellation authorisation once its SCA finalised or the payment
    // is final, a cancel once final) stand beside the same requests accepted where the tables allow them.
    dependsOnControl('payments.cancel.response');
    if (authorisations) dependsOnControl('payments.cancel.authorisations');
    await runProperty({
      name: 'a walk over a payment cancellation keeps to the state tables',
      requirement: 'payments.cancel.states.walk',
      arbitrary: fc.record({
        // Three walks in four on a product whose cancellation is authorised, where there are both kinds.
        combination:
          authorisable.length && atOnce.length
            ? fc.oneof(
                { arbitrary: fc.constantFrom(...authorisable), weight: 3 },
                { arbitrary: fc.constantFrom(...atOnce), weight: 1 },
              )
            : fc.constantFrom(...claimed),
        // Half the walks cancel an authorised payment (the cancellation of an accepted payment), and
        // half start from the cancellation authorised.
        authorised: fc.boolean(),
        cancellationAuthorised: fc.boolean(),
        steps: fc.commands(cancellationWalkSteps(authorisations), { maxCommands: depth.walkLength }),
      }),
      check: (walk) => walkCancellation(payments, walk, authorisations),
      exchanges,
      depth,
      // Twice the depth's walks (each one or two SCAs): a status revived by another cancellation
      // authorisation needs an authorisable product, its cancellation authorised, then another.
      runs: 2 * depth.walks,
      distinct: false,
    });
  },
);
