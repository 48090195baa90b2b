import {
  CONSENT_RULES,
  consentRuleBreaks,
  REFERENCE_WITHOUT_ID_ROWS,
} from '../../../harness/properties/consents-rules.js';
import { consentRefused, req, test } from '../../../harness/properties/consents.js';
import { runProperty } from '../../../harness/properties/run.js';
import { judgeRows } from '../../../harness/properties/table.js';

// Generated: create-consent bodies breaking one rule the schema's breakers leave unbroken (a
// frequencyPerDay above the maximum, an IBAN failing its check digits; a reference without iban,
// maskedPan or pan, a table of fourteen rows) are refused and create nothing, beside the valid consent accepted.
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

test(
  'table: create-consent bodies with a reference without iban, maskedPan or pan are refused',
  req('consents.create.account-reference-invalid'),
  async ({ consents, depth }) => {
    void depth;
    await judgeRows(
      'a create-consent body with a reference without iban, maskedPan or pan',
      REFERENCE_WITHOUT_ID_ROWS,
      (b) => `access = ${JSON.stringify(b.value)}`,
      consentRefused(consents),
    );
  },
);
