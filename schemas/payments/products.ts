/**
 * The payment services and payment products of the specification (endpoint section D), each listed
 * once: the profile schema's enums, the suite's and the sandbox's lists and types all derive from these.
 */
export const PAYMENT_SERVICES = ['payments', 'bulk-payments', 'periodic-payments'] as const;
export const PAYMENT_PRODUCTS = [
  'sepa-credit-transfers',
  'domestic',
  'international',
  'international-tp',
  'swedish-giro',
] as const;

export type PaymentService = (typeof PAYMENT_SERVICES)[number];
export type PaymentProduct = (typeof PAYMENT_PRODUCTS)[number];
