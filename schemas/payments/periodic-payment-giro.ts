export const paymentsPeriodicPaymentGiroSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/payments/periodic-payment-giro.json',
  title: 'Periodic swedish-giro payment',
  allOf: [{ $ref: 'defs.json#/$defs/periodic' }],
  required: ['debtorAccount', 'instructedAmount', 'creditorGiro', 'creditorName'],
} as const;
