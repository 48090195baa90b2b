import type { FastifyInstance } from 'fastify';
import type { Consent } from '../consents/store.js';
import { TERMINAL, type Authorisation } from '../sca/engine.js';
import type { Variant } from './variant.js';

/** How many signers' authorisations a corporate consent needs under this variant. */
export const CONSENT_SIGNERS = 2;

/** An account-information consent created with PSU-Corporate-ID in a corporate-scope token. */
const corporateConsent = (app: FastifyInstance, auth: Authorisation): Consent | undefined => {
  if (auth.resource.type !== 'consent') return undefined;
  const c = app.sandbox.consents.get(auth.resource.id);
  return c && c.type === 'ais' && c.context === 'corporate' && c.corporateId ? c : undefined;
};

/**
 * Multilevel SCA on consents: every finalised authorisation of a corporate consent but the last
 * signer's ends quietly (its status is finalised, the consent is not told), so the consent stays
 * received until `signers` authorisations have finalised. Wraps the engine's end, through which
 * both the decoupled and the redirect flows end an authorisation.
 */
export function requireConsentSigners(app: FastifyInstance, signers: number): void {
  const sca = app.sandbox.sca;
  const end = sca.end.bind(sca);
  sca.end = (auth, outcome) => {
    if (outcome === 'finalised' && !TERMINAL.has(auth.status) && corporateConsent(app, auth)) {
      const finalised = sca.of('consent', auth.resource.id).filter((a) => a.status === 'finalised').length;
      if (finalised + 1 < signers) {
        auth.status = 'finalised';
        auth.endedAt = Date.now();
        return;
      }
    }
    end(auth, outcome);
  };
}

/** How many signers' authorisations every payment needs under the payment variant. */
export const PAYMENT_SIGNERS = 2;

/**
 * Multilevel SCA on every payment, in the PSU's own context too (a bank whose payments each need
 * two signers): a payment is stored needing `signers` finalised authorisations, so that the first
 * SCA leaves it partly authorised (PATC) and it takes the next signer's authorisation (the
 * sandbox's payment service counts them, as it does for a corporate payment).
 */
export function requirePaymentSigners(app: FastifyInstance, signers: number): void {
  const store = app.sandbox.payments.payments;
  const set = store.set.bind(store);
  store.set = (id, p) => {
    // A new payment only: its first storing, before its links are made.
    if (!store.has(id) && p.signers < signers) p.signers = signers;
    return set(id, p);
  };
}

const variants: Variant[] = [
  {
    id: 'consents.multilevel-corporate',
    description: `a consent created in a corporate context (PSU-Corporate-ID in a corporate-scope token) needs ${CONSENT_SIGNERS} finalised authorisations, one per signer, and stays received until the last, under a profile claiming consents.multilevelSca.signers ${CONSENT_SIGNERS}`,
    allows:
      '| Start authorisation | POST base path/`<consentId>`/authorisations | no body; authorisation start response. Repeated once per required SCA in a corporate context. The bank may create the authorisation automatically after create consent |',
    concerns: ['consents.multilevel.last-signer', 'consents.state.valid-after-sca'],
    warns: [],
    claims: { consents: { multilevelSca: { signers: CONSENT_SIGNERS } } },
    install: (app) => requireConsentSigners(app, CONSENT_SIGNERS),
  },
  {
    id: 'payments.multilevel-every-payment',
    description: `every payment needs ${PAYMENT_SIGNERS} finalised authorisations, one per signer (multilevel SCA), in the PSU's own context too: the first SCA leaves it partly authorised (PATC), and it takes the next signer's authorisation`,
    allows:
      '| Initiate payment | POST base path | JSON body as the payment; response: initiate-payment response. With multilevel SCA the response has no scaRedirect or scaOAuth link and the authorisation must be started through startAuthorisation | (section D; reference facts: transactionStatus PATC, a multilevel SCA partly applied)',
    concerns: ['payments.states.walk'],
    warns: [],
    claims: { payments: { multilevelSca: { signers: PAYMENT_SIGNERS } } },
    install: (app) => requirePaymentSigners(app, PAYMENT_SIGNERS),
  },
];

export default variants;
