import { basketCases, largestBasket } from '../../../harness/properties/signing-baskets-cases.js';
import { basketAccepted, basketReadsBack, req, test } from '../../../harness/properties/signing-baskets.js';
import { runProperty } from '../../../harness/properties/run.js';

// Generated: create-basket bodies within the request schema's rules (one to three new payments) are
// accepted (the bodies that break one rule, a space of eight cases, are a table:
// basket-tables.spec.ts). Asking for basketPayment skips them, before their body, without a
// claimed payment to fill a basket with. A handful of cases each: every case initiates its payments.

test(
  'generated: valid create-basket bodies are accepted',
  req('signing-baskets.create.response'),
  async ({ baskets, basketPayment: _, depth, exchanges }) => {
    await runProperty({
      name: 'a valid generated create-basket body is accepted (2xx, a basketId, the answer as its schema says)',
      requirement: 'signing-baskets.create.response',
      arbitrary: basketCases(),
      check: basketAccepted(baskets),
      exchanges,
      depth,
      runs: Math.ceil(depth.cases / 4),
    });
  },
);

test(
  'generated: valid baskets read back their paymentIds as created',
  req('signing-baskets.read.response'),
  async ({ baskets, basketPayment: _, depth, exchanges }) => {
    await runProperty({
      name: 'a valid generated basket (one to three new payments) reads back its paymentIds as created',
      requirement: 'signing-baskets.read.response',
      arbitrary: basketCases(),
      // The largest basket first: a small space, its boundary named.
      examples: [largestBasket()],
      check: basketReadsBack(baskets),
      exchanges,
      depth,
      runs: Math.ceil(depth.cases / 4),
    });
  },
);
