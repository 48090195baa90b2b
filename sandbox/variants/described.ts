import consentFaults from '../faults/consents.js';
import paymentFaults from '../faults/payments.js';
import type { Variant } from './variant.js';

/** The install of a fault whose behaviour, its rule now a SHOULD, a bank may show. */
const installOf = (id: string) => {
  const fault = [...consentFaults, ...paymentFaults].find((f) => f.id === id);
  if (!fault) throw new Error(`sandbox/variants/described.ts: no fault ${id}`);
  return fault.install;
};

/**
 * Sentences that describe the request the TPP sends, read by a bank as just that: it takes what
 * the description does not forbid. The rules that refuse such requests are SHOULDs (they warn);
 * each variant is the behaviour of the fault that keeps the SHOULD's warning.
 */
const variants: Variant[] = [
  {
    id: 'headers.corporate-id-ignored-in-private',
    description: 'PSU-Corporate-ID sent in a private context is ignored, not refused',
    allows:
      'PSU-Corporate-ID only in a corporate context. (Common request headers: when the TPP sends it; no sentence says the bank refuses it elsewhere)',
    concerns: ['headers.psu-corporate-id.context'],
    warns: ['headers.psu-corporate-id.context'],
    install: installOf('headers.corporate-id-accepted-in-private'),
  },
  {
    id: 'payments.empty-creditor-name-taken',
    description: 'initiate payment takes an empty creditorName (fills it in) instead of refusing it',
    allows:
      '| creditorName | string | yes | at most 70 characters | (Resources: the field the TPP sends; no sentence says the bank refuses an empty one)',
    concerns: ['payments.initiate.creditor-name-empty'],
    warns: ['payments.initiate.creditor-name-empty'],
    install: installOf('payments.payment-empty-creditor-name'),
  },
  {
    id: 'consents.one-off-any-frequency',
    description: 'a one-off consent is created whatever its frequencyPerDay',
    allows:
      '| frequencyPerDay | integer | yes | at least 1. One-off access uses 1. At most 4 unless agreed bilaterally | (Resources: what the TPP sends for one-off access; no sentence says the bank refuses another value)',
    concerns: ['consents.limits.frequency-one-off', 'consents.limits.frequency-one-off-code'],
    warns: ['consents.limits.frequency-one-off', 'consents.limits.frequency-one-off-code'],
    install: installOf('consents.one-off-frequency-unchecked'),
  },
  {
    id: 'payments.malformed-redirect-uri-ignored',
    description: 'initiate payment ignores a TPP-Redirect-URI that is not a URI instead of refusing it',
    allows:
      '| TPP-Redirect-URI | string(uri) | where the flow returns after a redirect; mandated when TPP-Redirect-Preferred is true; recommended always | (Common request headers: the header the TPP sends; no sentence says the bank refuses another value)',
    concerns: ['payments.initiate.redirect-uri-format'],
    warns: ['payments.initiate.redirect-uri-format'],
    install: installOf('payments.payment-malformed-redirect-uri'),
  },
];

export default variants;
