import { forEachCombination } from '../../../harness/areas/payments.js';
import { runProperty } from '../../../harness/properties/run.js';
import { textProperty } from '../../../harness/properties/payments.js';
import { req, test } from '../../../harness/properties/test.js';

// Generated: every text field of a payment body, each of any length within its limit, over the
// specification's character set, is accepted and read back byte for byte.
forEachCombination(() => {
  test(
    'generated: text fields over the character set, at any length within their limits, are accepted and read back',
    req('payments.text.character-set'),
    async ({ payments, combination, depth, exchanges }) => {
      await runProperty({
        name: 'text fields over the character set are accepted and read back byte for byte',
        requirement: 'payments.text.character-set',
        ...textProperty(payments, combination),
        exchanges,
        depth,
        runs: depth.perCombination,
      });
    },
  );
});
