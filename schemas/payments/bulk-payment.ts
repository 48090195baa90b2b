export const paymentsBulkPaymentSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/payments/bulk-payment.json',
  title: 'Bulk payment: debtorAccount and payments[] (reference-facts, BG)',
  allOf: [{ $ref: 'defs.json#/$defs/bulk' }],
  properties: {
    payments: {
      items: {
        allOf: [{ $ref: 'defs.json#/$defs/transaction' }],
        required: ['instructedAmount', 'creditorAccount', 'creditorName'],
      },
    },
  },
} as const;
