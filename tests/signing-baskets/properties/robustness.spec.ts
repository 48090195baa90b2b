import { test } from '../../../harness/properties/headers.js';
import { claimedSubjects, robustProperty, type Subject } from '../../../harness/properties/robustness.js';
import { runProperty } from '../../../harness/properties/run.js';
import { req } from '../../../harness/test.js';

// Generated robustness: any input outside what the specification defines, sent to create basket
// (its paymentIds: an id outside the set or a near miss of a payment's, null, other types, unknown
// properties, a payment named twice, a list of hundreds; malformed JSON and other content types;
// header values outside their forms), to update PSU data of its authorisation (a psuData body) and
// to read, status and delete basket (malformed and unknown
// ids): never a 5xx; a refusal carries the error shape and no basketId, a refused delete leaves the
// basket as it was; an acceptance answers its schema.
test(
  'generated robustness: any input to create, read, status and delete basket is refused with the error shape or taken, never a 5xx',
  req('signing-baskets.robustness.any-input'),
  async ({ operations, target, depth, exchanges }) => {
    const subjects = claimedSubjects(target.profile, [
      // The shape the changes are drawn over; each case's own payment (a new one) is sent.
      {
        operation: 'signing-baskets.create',
        sample: { paymentIds: ['a-payment'] },
        sweep: true,
        whole: true,
        headers: true,
      },
      { operation: 'signing-baskets.read', id: true },
      { operation: 'signing-baskets.status', id: true },
      { operation: 'signing-baskets.delete', id: true },
      // Update PSU data with a psuData body (no method) on a received authorisation: the decoupled answer, or a refusal changing nothing.
      {
        operation: 'signing-baskets.authorisations.update',
        sample: { psuData: { password: 'sandbox' } },
        fixed: true,
        whole: true,
        response: 'authorisations/update-psu-data-decoupled',
      },
    ] satisfies Subject[]);
    await runProperty({
      name: 'any input to create, read, status and delete basket is refused with the error shape or taken, never a 5xx',
      requirement: 'signing-baskets.robustness.any-input',
      // Half the depth's cases: a case of create initiates its payment first.
      ...robustProperty(operations, target.profile, subjects, Math.ceil(depth.cases / 2)),
      exchanges,
      depth,
    });
  },
);
