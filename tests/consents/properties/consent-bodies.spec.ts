import { consentBreaks, consentCases } from '../../../harness/properties/consents-cases.js';
import { consentAccepted, consentReadsBack, consentRefused, req, test } from '../../../harness/properties/consents.js';
import { runProperty } from '../../../harness/properties/run.js';

// Generated: create-consent bodies of each kind the Consent table names are accepted; bodies that
// break exactly one rule of the request schema are refused and create nothing.

test(
  'generated: valid create-consent bodies of each kind are accepted',
  req('consents.create.response'),
  async ({ consents, depth, exchanges }) => {
    await runProperty({
      name: 'a valid generated create-consent body is accepted (2xx, a consentId, the answer as its schema says)',
      requirement: 'consents.create.response',
      arbitrary: consentCases(),
      check: consentAccepted(consents),
      exchanges,
      depth,
    });
  },
);

test(
  'generated: valid create-consent bodies, dedicated or bank-offered, read back as created',
  req('consents.read.fields'),
  async ({ consents, depth, exchanges }) => {
    await runProperty({
      name: 'a valid generated consent (dedicated to one to four references per list, or bank-offered) reads back as created',
      requirement: 'consents.read.fields',
      arbitrary: consentCases({ dedicated: true }),
      check: consentReadsBack(consents),
      exchanges,
      depth,
    });
  },
);

for (const requirement of [
  'consents.create.required-fields',
  'consents.create.field-types',
  'consents.limits.frequency-min',
]) {
  test(
    `generated: create-consent bodies breaking the rule of ${requirement} are refused`,
    req(requirement),
    async ({ consents, depth, exchanges }) => {
      await runProperty({
        name: `a create-consent body breaking the rule of ${requirement} is refused and creates nothing`,
        requirement,
        arbitrary: consentBreaks(requirement)!,
        check: consentRefused(consents),
        exchanges,
        depth,
      });
    },
  );
}
