export const paymentsSinglePaymentGiroSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/payments/single-payment-giro.json',
  title: 'Single swedish-giro payment: the creditor as creditorGiro (reference-facts)',
  allOf: [{ $ref: 'defs.json#/$defs/single' }],
  required: ['debtorAccount', 'instructedAmount', 'creditorGiro', 'creditorName'],
} as const;
