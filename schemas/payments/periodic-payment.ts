export const paymentsPeriodicPaymentSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/payments/periodic-payment.json',
  title: 'Periodic payment: single payment plus startDate, frequency... (reference-facts, BG)',
  allOf: [{ $ref: 'defs.json#/$defs/periodic' }],
  required: ['debtorAccount', 'instructedAmount', 'creditorAccount', 'creditorName'],
} as const;
