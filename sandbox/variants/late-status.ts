import { wrapConsentEnd } from '../hooks.js';
import type { Variant } from './variant.js';

/*
 * Statuses that follow an SCA a moment later: the tables say what a status becomes, not within
 * what time. The suite waits for them within the profile's SCA timeout (timeouts.scaMs).
 */

/** How long a consent stays received after its SCA finalised. */
const LATE_MS = 1_500;

const variants: Variant[] = [
  {
    id: 'consents.valid-a-moment-after-sca',
    description: `a consent turns valid ${LATE_MS} ms after its SCA finalised (it reads received until then, and a former recurring consent of the PSU expires then)`,
    allows:
      '| received | valid | SCA finalised | (States > Consent: what the status becomes, not within what time); "In the sandbox the status changes on its own within a few seconds with no PSU action." (States > Authorisation)',
    concerns: [
      'consents.state.valid-after-sca',
      'consents.state.recurring-expires-former',
      'consents.state.one-off-keeps-former',
      'consents.multilevel.last-signer',
      'consents.states.walk',
      'accounts.list.shape',
      'direct-debit.consent.long-lived',
    ],
    warns: [],
    install: (app) =>
      wrapConsentEnd(app, (listener, auth) => {
        if (auth.status !== 'finalised') return listener(auth);
        setTimeout(() => listener(auth), LATE_MS).unref();
      }),
  },
];

export default variants;
