export const paymentsSinglePaymentSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/payments/single-payment.json',
  title: 'Single payment (Resources > Payment)',
  allOf: [{ $ref: 'defs.json#/$defs/single' }],
  required: ['debtorAccount', 'instructedAmount', 'creditorAccount', 'creditorName'],
} as const;
