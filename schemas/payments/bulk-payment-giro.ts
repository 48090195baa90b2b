export const paymentsBulkPaymentGiroSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/payments/bulk-payment-giro.json',
  title: 'Bulk swedish-giro payment: each element with creditorGiro',
  allOf: [{ $ref: 'defs.json#/$defs/bulk' }],
  properties: {
    payments: {
      items: {
        allOf: [{ $ref: 'defs.json#/$defs/transaction' }],
        required: ['instructedAmount', 'creditorGiro', 'creditorName'],
      },
    },
  },
} as const;
