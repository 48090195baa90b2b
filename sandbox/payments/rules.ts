import { today } from '../../spec/iso8601.js';
import type { SchemaId } from '../../schemas/index.js';
import type { Payment, PaymentProduct, PaymentService, TransactionStatus } from './store.js';

/**
 * The reference sandbox's product rules (what the specification leaves to the bank).
 *
 * - Bodies: single payments as in the specification; bulk and periodic as in reference-facts
 *   (BG); swedish-giro names its creditor with `creditorGiro` instead of `creditorAccount`.
 * - international-tp needs the FX-Quote-Id header.
 * - Authorisation: a payment initiated in a private context needs one SCA; in a corporate
 *   context (PSU-Corporate-ID) it needs CORPORATE_SIGNERS (multilevel SCA), and is PATC in between.
 * - After the last SCA: a single or bulk payment with no future requestedExecutionDate is
 *   executed at once (ACSC) and so is past its cancellation time limit; a future-dated one is
 *   ACTC; a periodic payment (a standing order) is ACTC. A failed SCA rejects it (RJCT).
 * - Cancellation: sepa-credit-transfers and domestic cancel at once (204, CANC);
 *   international, international-tp and swedish-giro need a cancellation authorisation
 *   (202 with startAuthorisation, CANC once it is finalised). An executed (ACSC), rejected or
 *   cancelled payment cannot be cancelled: 405 CANCELLATION_INVALID.
 */
export { PAYMENT_PRODUCTS as PRODUCTS, PAYMENT_SERVICES as SERVICES } from '../../schemas/payments/products.js';

export const CORPORATE_SIGNERS = 2;

export const CANCEL_NEEDS_AUTHORISATION: ReadonlySet<PaymentProduct> = new Set([
  'international',
  'international-tp',
  'swedish-giro',
]);

/** The request schema of a service × product (schemas/payments). */
export function requestSchema(service: PaymentService, product: PaymentProduct): SchemaId {
  const kind = service === 'payments' ? 'single' : service === 'bulk-payments' ? 'bulk' : 'periodic';
  return `payments/${kind}-payment${product === 'swedish-giro' ? '-giro' : ''}` as const;
}

/** The status a payment moves to once its last SCA is finalised. */
export function statusAfterSca(p: Payment): TransactionStatus {
  if (p.service === 'periodic-payments') return 'ACTC';
  const date = p.body.requestedExecutionDate;
  return typeof date === 'string' && date > today() ? 'ACTC' : 'ACSC';
}

/** Statuses past which a payment can no longer be cancelled. */
export const NOT_CANCELLABLE: ReadonlySet<TransactionStatus> = new Set(['ACSC', 'ACCC', 'RJCT', 'CANC']);
