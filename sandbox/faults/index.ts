import type { FastifyInstance } from 'fastify';
import accountFaults from './accounts.js';
import accountTransactionFaults from './accounts-transactions.js';
import authorisationFaults from './authorisations.js';
import consentFaults from './consents.js';
import consentLifecycleFaults from './consents-lifecycle.js';
import type { Fault } from './fault.js';
import directDebitFaults from './direct-debit.js';
import directDebitFieldFaults from './direct-debit-fields.js';
import directoryFaults from './directory.js';
import headerFaults from './headers.js';
import initiationFaults from './initiation.js';
import multilevelFaults from './multilevel.js';
import oauthFaults from './oauth.js';
import paymentAuthorisationFaults from './payment-authorisations.js';
import paymentFaults from './payments.js';
import pendingDateFaults from './pending-dates.js';
import redirectFaults from './redirect.js';
import qrFaults from './qr.js';
import signingBasketFaults from './signing-baskets.js';
import signingFaults from './signing.js';

/** Every fault the sandbox knows, one list per area. */
export const FAULTS: Fault[] = [
  ...headerFaults,
  ...directoryFaults,
  ...accountFaults,
  ...accountTransactionFaults,
  ...directDebitFaults,
  ...directDebitFieldFaults,
  ...consentFaults,
  ...consentLifecycleFaults,
  ...authorisationFaults,
  ...qrFaults,
  ...oauthFaults,
  ...paymentFaults,
  ...paymentAuthorisationFaults,
  ...initiationFaults,
  ...signingBasketFaults,
  ...redirectFaults,
  ...signingFaults,
  ...multilevelFaults,
  ...pendingDateFaults,
];

export function findFault(id: string): Fault {
  const f = FAULTS.find((x) => x.id === id);
  if (!f) throw new Error(`unknown sandbox fault "${id}" (known: ${FAULTS.map((x) => x.id).join(', ')})`);
  return f;
}

export function installFaults(app: FastifyInstance, ids: string[]): void {
  for (const id of ids) findFault(id).install(app);
}
