import { PAYMENT_PRODUCTS as PRODUCTS, PAYMENT_SERVICES as SERVICES } from '../../schemas/payments/products.js';
import type { PaymentProduct, PaymentService } from '../config/profile.js';
import type { Target } from '../config/target.js';

// The service × product combinations of endpoint section D, and which of them a profile claims.

/** The payment services and products of the specification (one list of each, schemas/payments/products.ts). */
export { PRODUCTS, SERVICES };

/** One payment-service × payment-product of endpoint section D. */
export interface Combination {
  service: PaymentService;
  product: PaymentProduct;
}

/** Every service × product of the specification; tests are made for each and skip those the profile does not claim. */
export const COMBINATIONS: readonly Combination[] = SERVICES.flatMap((service) =>
  PRODUCTS.map((product) => ({ service, product })),
);

export const label = (c: Combination) => `${c.service}/${c.product}`;

/**
 * What decides whether a combination is claimed: the profile and the run's FX quote (a Target is
 * one). Never the profile alone: an international-tp payment needs a quote of the bank.
 */
export type Claimant = Pick<Target, 'profile' | 'fxQuoteId'> & Partial<Pick<Target, 'profileName'>>;

/**
 * Why the target does not claim a combination, or undefined when it does: the profile's services
 * and products, and for international-tp an FX quote of the bank (FX_QUOTE_ID), without which it
 * is not claimed (no check makes or judges an international-tp payment).
 */
export function unclaimed(target: Claimant, c: Combination): string | undefined {
  const { profile } = target;
  const services = profile.payments.services;
  const products = profile.payments.products;
  const missing = [
    !services.includes(c.service) ? `payment service ${c.service}` : '',
    !products.includes(c.product) ? `payment product ${c.product}` : '',
  ].filter(Boolean);
  if (missing.length)
    return `not claimed: the profile${target.profileName ? ` "${target.profileName}"` : ''} does not claim ${missing.join(' and ')} (payments.services / payments.products)`;
  if (c.product === 'international-tp' && !target.fxQuoteId) return NO_FX_QUOTE;
  return undefined;
}

/** The first combination the target claims (for checks that need one payment of any kind). */
export function firstClaimed(target: Claimant): Combination | undefined {
  return COMBINATIONS.find((c) => !unclaimed(target, c));
}

/** Why international-tp is not judged without a quote. */
export const NO_FX_QUOTE =
  'not claimed: an international-tp payment carries FX-Quote-Id, a quote of the bank; set FX_QUOTE_ID in .env to judge international-tp';

/** transactionStatus values of a payment whose authorisation is complete and not rejected (reference-facts, Enumerations). */
export const ACCEPTED = ['ACCP', 'ACTC', 'ACSC', 'ACSP', 'ACWC', 'ACCC', 'ACFC'];
