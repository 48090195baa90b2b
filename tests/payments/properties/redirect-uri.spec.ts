import { brokenRedirectUris } from '../../../harness/properties/headers-rule-breaks.js';
import { Binder, claimedFor, headerRefused, onOperations, req, test } from '../../../harness/properties/headers.js';
import { runProperty } from '../../../harness/properties/run.js';

// Generated: initiate payment with a TPP-Redirect-URI that is no URI (no RFC 3986 scheme), near the
// target's own, is refused as the hand-written check judges it (tests/payments/refusals.spec.ts):
// a 4xx carrying no data, nothing created, beside the same call with the valid value accepted.

test(
  'generated: initiate payment with a TPP-Redirect-URI that is no URI refuses it',
  req('payments.initiate.redirect-uri-format'),
  async ({ operations, target, depth, exchanges }) => {
    const binder = new Binder(operations);
    await runProperty({
      name: 'a TPP-Redirect-URI without a scheme is refused (a 4xx carrying no data), beside the valid one accepted',
      requirement: 'payments.initiate.redirect-uri-format',
      arbitrary: onOperations(
        claimedFor(target, (o) => o.id === 'payments.initiate', depth),
        brokenRedirectUris(target.redirectUri),
      ),
      check: headerRefused(binder),
      exchanges,
      depth,
    });
  },
);
