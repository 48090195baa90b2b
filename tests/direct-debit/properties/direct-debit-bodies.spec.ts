import { directDebitBreaks, directDebitCases } from '../../../harness/properties/direct-debit-cases.js';
import {
  directDebitAccepted,
  directDebitReadsBack,
  directDebitRefused,
  req,
  test,
} from '../../../harness/properties/direct-debit.js';
import { runProperty } from '../../../harness/properties/run.js';
import { dependsOnControl } from '../../../harness/expect.js';

// Generated: create SEPA direct debit bodies within every field rule of the request schema are
// accepted; bodies that break exactly one rule are refused and create nothing, beside the creditor's
// valid body accepted in the same test. A handful of cases each (a quarter of the depth's).

test(
  'generated: valid direct debit bodies are accepted',
  req('direct-debit.create.response'),
  async ({ directDebit, depth, exchanges }) => {
    await runProperty({
      name: 'a valid generated direct debit body is accepted (2xx, a paymentId, the answer as its schema says)',
      requirement: 'direct-debit.create.response',
      arbitrary: directDebitCases(),
      check: directDebitAccepted(directDebit),
      exchanges,
      depth,
      runs: Math.ceil(depth.cases / 4),
    });
  },
);

test(
  'generated: valid direct debit bodies read back as sent',
  req('direct-debit.get.fields'),
  async ({ directDebit, depth, exchanges }) => {
    await runProperty({
      name: 'a valid generated direct debit reads back on get payment as sent, with a transactionStatus',
      requirement: 'direct-debit.get.fields',
      // Every optional field kept: each has then a value to read back.
      arbitrary: directDebitCases({ keepAll: true }),
      check: directDebitReadsBack(directDebit),
      exchanges,
      depth,
      runs: Math.ceil(depth.cases / 2),
    });
  },
);

// The MUSTs judge the class (a 4xx), the SHOULDs the 400 they name.
for (const [requirement, status] of [
  ['direct-debit.create.currency-eur', undefined],
  ['direct-debit.create.local-instrument-core', undefined],
  ['direct-debit.create.required-fields', 400],
  ['direct-debit.create.mandate', 400],
  ['direct-debit.create.sequence-type', 400],
] as const) {
  test(
    `generated: direct debit bodies breaking the rule of ${requirement} are refused`,
    req(requirement),
    async ({ directDebit, depth, exchanges }) => {
      // Its control: the creditor's valid body, accepted in the same test before the first case.
      dependsOnControl('direct-debit.create.response');
      await runProperty({
        name: `a direct debit body breaking the rule of ${requirement} is refused and creates nothing`,
        requirement,
        arbitrary: directDebitBreaks(requirement)!,
        check: directDebitRefused(directDebit, status),
        exchanges,
        depth,
        runs: Math.ceil(depth.cases / 4),
      });
    },
  );
}
