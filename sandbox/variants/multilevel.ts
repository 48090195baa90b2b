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
];

export default variants;
