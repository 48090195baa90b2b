import { because, COMBINATIONS, expect, label, req, test, unclaimed } from '../../harness/areas/payments.js';
import type { Json } from '../../harness/values/json.js';

// The payment's account reference (Resources > Payment: "Account reference fields: iban, bban, pan,
// maskedPan, msisdn, clearingNumber, currency"): a creditorAccount given by each of the fields the
// consent's reference does not already cover (consents.create.account-references judges iban,
// maskedPan and pan on create consent).

const REFERENCES: [string, Json][] = [
  ['pan', { pan: '5409050000000000' }],
  ['maskedPan', { maskedPan: '540905xxxxxx0000' }],
  ['msisdn', { msisdn: '+46701234567' }],
];

test(
  'a single payment whose creditorAccount is given by pan, by maskedPan or by msisdn is accepted',
  req('payments.initiate.account-reference-kinds'),
  async ({ payments }) => {
    const c = COMBINATIONS.find((x) => x.service === 'payments' && !unclaimed(payments.target, x));
    test.skip(!c, `not claimed: the profile "${payments.target.profileName}" claims no single payment`);
    for (const [kind, reference] of REFERENCES) {
      const body: Json = { ...payments.body(c!), creditorAccount: reference };
      delete body.creditorGiro;
      const res = await payments.initiate(c!, { body });
      await expect
        .soft(
          res,
          because(
            `initiate a ${label(c!)} payment whose creditorAccount is given by ${kind}: ${JSON.stringify(reference)}`,
          ),
        )
        .toSucceed();
    }
  },
);
