export const paymentsPaymentStatusSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/payments/payment-status.json',
  title: 'Payment status response: transactionStatus',
  type: 'object',
  // "Status response: `transactionStatus`": a string. The specification only shows its values ("Values
  // seen: RCVD, ACCP, ACTC, ACSC, RJCT"): the ISO 20022 code list is payments/payment-status-values (a SHOULD).
  required: ['transactionStatus'],
  properties: {
    transactionStatus: { type: 'string' },
    tppMessages: { type: 'array', items: { $ref: '../common/tpp-message.json' } },
  },
} as const;
