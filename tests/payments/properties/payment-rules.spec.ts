import { claimedCombinations } from '../../../harness/properties/payments.js';
import { ruleCases, ruleCheck } from '../../../harness/properties/payments-rules.js';
import { runProperty } from '../../../harness/properties/run.js';
import { req, test } from '../../../harness/properties/test.js';

// Generated: bodies breaking one rule the other breakers leave unbroken (the creditor agent's
// BICFI, an IBAN's check digits, a past execution date; an address country, the periodic
// enumerations, an endDate before the startDate), in any field that carries it, of any claimed
// service × product, are refused as the rule's hand-written check judges, and create nothing.
for (const requirement of [
  'payments.initiate.creditor-agent-bicfi',
  'payments.initiate.iban',
  'payments.execution-date.past',
  'payments.initiate.address-country',
  'payments.periodic.frequency',
  'payments.periodic.execution-rule',
  'payments.periodic.day-of-execution',
  'payments.periodic.end-before-start',
]) {
  test(
    `generated: bodies breaking the rule of ${requirement} are refused`,
    req(requirement),
    async ({ payments, claimedPayment, depth, exchanges }) => {
      void claimedPayment;
      const cases = ruleCases(payments, claimedCombinations(payments), requirement);
      test.skip(!cases, `not claimed: no claimed service × product carries the rule of ${requirement}`);
      await runProperty({
        name: `a body breaking the rule of ${requirement} is refused and creates nothing`,
        requirement,
        arbitrary: cases!,
        check: ruleCheck(payments),
        exchanges,
        depth,
      });
    },
  );
}
