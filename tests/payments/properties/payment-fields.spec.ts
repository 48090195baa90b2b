import { runProperty } from '../../../harness/properties/run.js';
import { anyValidCase, claimedCombinations, validCheck } from '../../../harness/properties/payments.js';
import { req, test } from '../../../harness/properties/test.js';

// Generated: bodies within every field rule (optional fields left out or kept, enumerations, dates,
// amounts, texts, one or more payments of a bulk) of every claimed service × product.

test(
  'generated: valid bodies of every claimed service and product are accepted',
  req('payments.initiate.response'),
  async ({ payments, claimedPayment, depth, exchanges }) => {
    void claimedPayment;
    await runProperty({
      name: 'a valid generated body is accepted (2xx, a paymentId, the answer as its schema says)',
      requirement: 'payments.initiate.response',
      arbitrary: anyValidCase(payments, claimedCombinations(payments)),
      check: validCheck(payments, false),
      exchanges,
      depth,
    });
  },
);

test(
  'generated: valid bodies of every claimed service and product read back as sent',
  req('payments.read.fields'),
  async ({ payments, claimedPayment, depth, exchanges }) => {
    void claimedPayment;
    await runProperty({
      name: 'a valid generated body reads back as sent',
      requirement: 'payments.read.fields',
      arbitrary: anyValidCase(payments, claimedCombinations(payments)),
      check: validCheck(payments, true),
      exchanges,
      depth,
    });
  },
);
