import { answerCheck, judgeCreated, judgeHeaders } from '../../../harness/properties/payments-answers.js';
import { anyValidCase, claimedCombinations } from '../../../harness/properties/payments.js';
import { runProperty } from '../../../harness/properties/run.js';
import { req, test } from '../../../harness/properties/test.js';

// Generated: the answer to a valid generated body (optional fields left out or kept, enumerations,
// dates, amounts, one or two payments of a bulk) of any claimed service × product carries Location
// and ASPSP-SCA-Approach, and a transactionStatus RCVD (when given) and links pointing at the payment
// created, as the hand-written checks judge the answer to the product's own body.
test(
  'generated: an accepted valid body is answered with Location and ASPSP-SCA-Approach',
  req('payments.initiate.headers'),
  async ({ payments, claimedPayment, depth, exchanges }) => {
    void claimedPayment;
    await runProperty({
      name: 'an accepted valid generated body is answered with Location and ASPSP-SCA-Approach',
      requirement: 'payments.initiate.headers',
      arbitrary: anyValidCase(payments, claimedCombinations(payments)),
      check: answerCheck(payments, judgeHeaders),
      exchanges,
      depth,
    });
  },
);

test(
  'generated: an accepted valid body is answered RCVD, its links pointing at the payment',
  req('payments.initiate.response'),
  async ({ payments, claimedPayment, depth, exchanges }) => {
    void claimedPayment;
    await runProperty({
      name: 'an accepted valid generated body is answered RCVD (when given), each link pointing at the payment created',
      requirement: 'payments.initiate.response',
      arbitrary: anyValidCase(payments, claimedCombinations(payments)),
      check: answerCheck(payments, judgeCreated(payments)),
      exchanges,
      depth,
    });
  },
);
