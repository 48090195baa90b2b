import type { FastifyInstance } from 'fastify';
import pendingDateFaults from './accounts-pending-dates.js';
import accountTransactionFaults from './accounts-transactions.js';
import accountFaults from './accounts.js';
import accountLinkFaults from './accounts-links.js';
import accountPropertyFaults from './accounts-properties.js';
import withBalanceFaults from './accounts-with-balance.js';
import qrFaults from './authorisations-qr.js';
import authorisationFaults from './authorisations.js';
import authorisationPropertyFaults from './authorisations-properties.js';
import resourceAuthorisationFaults from './authorisations-resources.js';
import type { Fault } from './fault.js';
import consentLifecycleFaults from './consents-lifecycle.js';
import multilevelFaults from './consents-multilevel.js';
import consentFaults from './consents.js';
import consentPropertyFaults from './consents-properties.js';
import directDebitFieldFaults from './direct-debit-fields.js';
import directDebitPropertyFaults from './direct-debit-properties.js';
import directDebitFaults from './direct-debit.js';
import directoryFaults from './directory.js';
import affiliatedFaults from './headers-affiliated.js';
import paymentAnswerFaults from './payments-answers.js';
import consentAnswerFaults from './consents-answers.js';
import headerSigningFaults from './headers-signing.js';
import headerFaults from './headers.js';
import headerPropertyFaults from './headers-properties.js';
import headerErrorFaults from './headers-errors.js';
import headerResourceFaults from './headers-resources.js';
import oauthRedirectFaults from './oauth-redirect.js';
import oauthFaults from './oauth.js';
import oauthPropertyFaults from './oauth-properties.js';
import paymentAuthorisationFaults from './payments-authorisations.js';
import paymentPropertyFaults from './payments-properties.js';
import paymentRulePropertyFaults from './payments-rules-properties.js';
import initiationFaults from './payments-initiation.js';
import paymentLinkFaults from './payments-links.js';
import paymentFaults from './payments.js';
import signingBasketFaults from './signing-baskets.js';
import signingBasketPropertyFaults from './signing-baskets-properties.js';
import signingBasketAuthorisationFaults from './signing-baskets-authorisations.js';

/** Every fault the sandbox knows, one list per area. */
export const FAULTS: Fault[] = [
  ...headerFaults,
  ...headerErrorFaults,
  ...headerResourceFaults,
  ...directoryFaults,
  ...accountFaults,
  ...accountTransactionFaults,
  ...withBalanceFaults,
  ...accountLinkFaults,
  ...directDebitFaults,
  ...directDebitFieldFaults,
  ...consentFaults,
  ...consentLifecycleFaults,
  ...authorisationFaults,
  ...qrFaults,
  ...resourceAuthorisationFaults,
  ...oauthFaults,
  ...paymentFaults,
  ...paymentAnswerFaults,
  ...consentAnswerFaults,
  ...paymentAuthorisationFaults,
  ...initiationFaults,
  ...paymentLinkFaults,
  ...signingBasketFaults,
  ...signingBasketAuthorisationFaults,
  ...oauthRedirectFaults,
  ...headerSigningFaults,
  ...affiliatedFaults,
  ...multilevelFaults,
  ...pendingDateFaults,
  // The faults only the generated phase catches (caughtBy: 'properties'), filed by area too.
  ...paymentPropertyFaults,
  ...signingBasketPropertyFaults,
  ...directDebitPropertyFaults,
  ...authorisationPropertyFaults,
  ...consentPropertyFaults,
  ...headerPropertyFaults,
  ...accountPropertyFaults,
  ...paymentRulePropertyFaults,
  ...oauthPropertyFaults,
];

export function findFault(id: string): Fault {
  const f = FAULTS.find((x) => x.id === id);
  if (!f) throw new Error(`unknown sandbox fault "${id}" (known: ${FAULTS.map((x) => x.id).join(', ')})`);
  return f;
}

export function installFaults(app: FastifyInstance, ids: string[]): void {
  for (const id of ids) findFault(id).install(app);
}
