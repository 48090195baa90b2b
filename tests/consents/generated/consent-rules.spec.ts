import { CONSENT_RULES, consentRuleBreaks } from '../../../harness/generated/consent-rules.js';
import { consentRefused, req, test } from '../../../harness/generated/consents.js';
import { runProperty } from '../../../harness/generated/run.js';

// Generated: create-consent bodies breaking one rule the schema's breakers leave unbroken (a
// frequencyPerDay above the maximum, a reference without iban, maskedPan or pan, an IBAN failing
// its check digits) are refused and create nothing, beside the valid consent accepted.
for (const requirement of CONSENT_RULES) {
  test(
    `generated: create-consent bodies breaking the rule of ${requirement} are refused`,
    req(requirement),
    async ({ consents, depth, exchanges }) => {
      await runProperty({
        name: `a create-consent body breaking the rule of ${requirement} is refused and creates nothing`,
        requirement,
        arbitrary: consentRuleBreaks(requirement, consents.api.target.profile),
        check: consentRefused(consents),
        exchanges,
        depth,
      });
    },
  );
}
