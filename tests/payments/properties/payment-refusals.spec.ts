import { runProperty } from '../../../harness/properties/run.js';
import { brokenCases, brokenCheck, claimedCombinations } from '../../../harness/properties/payments.js';
import { req, test } from '../../../harness/properties/test.js';

// Generated: bodies breaking exactly one rule, in any field that carries it (every element of a
// bulk), of any claimed service × product, are refused and create nothing. Each rule's refusals
// beside their positive control: the same product's valid body accepted in the same test.
for (const requirement of [
  'payments.limits.end-to-end-identification',
  'payments.limits.creditor-name',
  'payments.limits.creditor-agent-name',
  'payments.limits.remittance-information',
  'payments.limits.debtor-account-message',
  'payments.limits.creditor-address-street',
  'payments.initiate.required-fields',
  'payments.initiate.required-fields-bulk-periodic',
  'payments.amount.format',
  'payments.execution-date.format',
]) {
  test(
    `generated: bodies breaking the rule of ${requirement} are refused`,
    req(requirement),
    async ({ payments, claimedPayment, depth, exchanges }) => {
      void claimedPayment;
      const cases = brokenCases(payments, claimedCombinations(payments), requirement);
      test.skip(!cases, `not claimed: no claimed service × product carries the rule of ${requirement}`);
      await runProperty({
        name: `a body breaking the rule of ${requirement} is refused and creates nothing`,
        requirement,
        arbitrary: cases!,
        check: brokenCheck(payments),
        exchanges,
        depth,
      });
    },
  );
}
