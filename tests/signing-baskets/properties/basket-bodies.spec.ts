import {
  basketBreaks,
  basketCases,
  everyUnknownPaymentCase,
  largestBasket,
} from '../../../harness/properties/signing-baskets-cases.js';
import {
  basketAccepted,
  basketReadsBack,
  basketRefused,
  req,
  test,
} from '../../../harness/properties/signing-baskets.js';
import { runProperty } from '../../../harness/properties/run.js';
import { dependsOnControl } from '../../../harness/expect.js';

// Generated: create-basket bodies within the request schema's rules (one to three new payments) are
// accepted; bodies that break exactly one rule are refused and create nothing, beside a valid basket
// accepted in the same test. Asking for basketPayment skips them, before their body, without a
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

test(
  'generated: create-basket bodies without payments are refused',
  req('signing-baskets.create.empty'),
  async ({ baskets, basketPayment: _, depth, exchanges }) => {
    // Its control: a valid basket of one new payment, accepted in the same test before the first case.
    dependsOnControl('signing-baskets.create.response');
    await runProperty({
      name: 'a create-basket body with paymentIds left out or empty is refused and creates nothing',
      requirement: 'signing-baskets.create.empty',
      arbitrary: basketBreaks('signing-baskets.create.empty')!,
      check: basketRefused(baskets),
      exchanges,
      depth,
      runs: Math.ceil(depth.cases / 4),
    });
  },
);

test(
  'generated: create-basket bodies naming an unknown payment among known ones are rejected with 400',
  req('signing-baskets.create.unknown-payment'),
  async ({ baskets, basketPayment: _, depth, exchanges }) => {
    // Its control: a valid basket of one new payment, accepted in the same test before the first case.
    dependsOnControl('signing-baskets.create.response');
    await runProperty({
      name: 'a create-basket body naming an unknown payment, at any position among known ones, is rejected with 400',
      requirement: 'signing-baskets.create.unknown-payment',
      arbitrary: basketBreaks('signing-baskets.create.unknown-payment')!,
      // Six cases in all (none to two known payments, the unknown one anywhere): each tried first.
      examples: everyUnknownPaymentCase(),
      check: basketRefused(baskets, 400),
      exchanges,
      depth,
      runs: Math.ceil(depth.cases / 4),
    });
  },
);
