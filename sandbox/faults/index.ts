import type { FastifyInstance } from 'fastify';
import pendingDateFaults from './accounts-pending-dates.js';
import accountTransactionFaults from './accounts-transactions.js';
import accountFaults from './accounts.js';
import accountLinkFaults from './accounts-links.js';
import withBalanceFaults from './accounts-with-balance.js';
import qrFaults from './authorisations-qr.js';
import authorisationFaults from './authorisations.js';
import authorisationGeneratedFaults from './authorisations-generated.js';
import resourceAuthorisationFaults from './authorisations-resources.js';
import type { Fault } from './fault.js';
import consentLifecycleFaults from './consents-lifecycle.js';
import multilevelFaults from './consents-multilevel.js';
import consentFaults from './consents.js';
import consentGeneratedFaults from './consents-generated.js';
import directDebitFieldFaults from './direct-debit-fields.js';
import directDebitGeneratedFaults from './direct-debit-generated.js';
import directDebitFaults from './direct-debit.js';
import directoryFaults from './directory.js';
import affiliatedFaults from './headers-affiliated.js';
import headerSigningFaults from './headers-signing.js';
import headerFaults from './headers.js';
import headerGeneratedFaults from './headers-generated.js';
import headerErrorFaults from './headers-errors.js';
import headerResourceFaults from './headers-resources.js';
import oauthRedirectFaults from './oauth-redirect.js';
import oauthFaults from './oauth.js';
import paymentAuthorisationFaults from './payments-authorisations.js';
import generatedFaults from './payments-generated.js';
import ruleGeneratedFaults from './payments-rules-generated.js';
import walksGeneratedFaults from './walks-generated.js';
import initiationFaults from './payments-initiation.js';
import paymentLinkFaults from './payments-links.js';
import paymentFaults from './payments.js';
import signingBasketFaults from './signing-baskets.js';
import signingBasketGeneratedFaults from './signing-baskets-generated.js';
import robustnessGeneratedFaults from './robustness-generated.js';
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
  ...generatedFaults,
  ...walksGeneratedFaults,
  ...signingBasketGeneratedFaults,
  ...directDebitGeneratedFaults,
  ...authorisationGeneratedFaults,
  ...consentGeneratedFaults,
  ...headerGeneratedFaults,
  ...robustnessGeneratedFaults,
  ...ruleGeneratedFaults,
];

export function findFault(id: string): Fault {
  const f = FAULTS.find((x) => x.id === id);
  if (!f) throw new Error(`unknown sandbox fault "${id}" (known: ${FAULTS.map((x) => x.id).join(', ')})`);
  return f;
}

export function installFaults(app: FastifyInstance, ids: string[]): void {
  for (const id of ids) findFault(id).install(app);
}
