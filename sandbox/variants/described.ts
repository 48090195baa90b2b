import { beforeHandler } from '../hooks.js';
import type { Variant } from './variant.js';

const ANY_CONSENT = /^\/psd2\/consent\//;
const CREATE_CONSENT = /^\/psd2\/consent\/v1\/consents$/;
const INITIATE = /^\/psd2\/paymentinitiation\/v1\/:paymentService\/:paymentProduct$/;

type Body = Record<string, unknown> | undefined;

/**
 * Sentences that describe the request the TPP sends, read by a bank as just that: it takes what
 * the description does not forbid. The rules that refuse such requests are SHOULDs (they warn);
 * each variant behaves as the fault that keeps the SHOULD's warning (faults/consents.ts, faults/payments.ts).
 */
const variants: Variant[] = [
  {
    id: 'headers.corporate-id-ignored-in-private',
    description: 'PSU-Corporate-ID sent in a private context is ignored, not refused',
    allows:
      'PSU-Corporate-ID only in a corporate context. (Common request headers: when the TPP sends it; no sentence says the bank refuses it elsewhere)',
    concerns: ['headers.psu-corporate-id.context'],
    warns: ['headers.psu-corporate-id.context'],
    install: (app) =>
      beforeHandler(app, { route: ANY_CONSENT }, (req) => {
        if (!req.token?.scopes.has('corporate')) delete req.headers['psu-corporate-id'];
      }),
  },
  {
    id: 'payments.empty-creditor-name-taken',
    description: 'initiate payment takes an empty creditorName (fills it in) instead of refusing it',
    allows:
      '| creditorName | string | yes | at most 70 characters | (Resources: the field the TPP sends; no sentence says the bank refuses an empty one)',
    // The robustness properties send an empty creditorName too: what the bank stores for it is not theirs to judge.
    concerns: ['payments.initiate.creditor-name-empty', 'payments.robustness.any-input'],
    warns: ['payments.initiate.creditor-name-empty'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: INITIATE }, (req) => {
        const body = req.body as { creditorName?: unknown; payments?: { creditorName?: unknown }[] } | undefined;
        for (const o of [body, ...(Array.isArray(body?.payments) ? body.payments : [])])
          if (o && o.creditorName === '') o.creditorName = 'Creditor';
      }),
  },
  {
    id: 'consents.one-off-any-frequency',
    description: 'a one-off consent is created whatever its frequencyPerDay',
    allows:
      '| frequencyPerDay | integer | yes | at least 1. One-off access uses 1. At most 4 unless agreed bilaterally | (Resources: what the TPP sends for one-off access; no sentence says the bank refuses another value)',
    concerns: ['consents.limits.frequency-one-off', 'consents.limits.frequency-one-off-code'],
    warns: ['consents.limits.frequency-one-off', 'consents.limits.frequency-one-off-code'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: CREATE_CONSENT }, (req) => {
        const b = req.body as Body;
        if (b && b.recurringIndicator === false && typeof b.frequencyPerDay === 'number' && b.frequencyPerDay > 1)
          b.frequencyPerDay = 1;
      }),
  },
  {
    id: 'payments.malformed-redirect-uri-ignored',
    description: 'initiate payment ignores a TPP-Redirect-URI that is not a URI instead of refusing it',
    allows:
      '| TPP-Redirect-URI | string(uri) | where the flow returns after a redirect; mandated when TPP-Redirect-Preferred is true; recommended always | (Common request headers: the header the TPP sends; no sentence says the bank refuses another value)',
    concerns: ['payments.initiate.redirect-uri-format'],
    warns: ['payments.initiate.redirect-uri-format'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: INITIATE }, (req) => {
        const uri = req.headers['tpp-redirect-uri'];
        if (typeof uri === 'string' && !URL.canParse(uri)) delete req.headers['tpp-redirect-uri'];
      }),
  },
];

export default variants;
