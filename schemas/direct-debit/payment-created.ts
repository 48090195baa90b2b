export const directDebitPaymentCreatedSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/direct-debit/payment-created.json',
  title:
    'Create SEPA direct debit payment response (endpoint section H 1): transactionStatus RCVD, paymentId, _links confirmPayment and self',
  type: 'object',
  required: ['transactionStatus', 'paymentId', '_links'],
  properties: {
    transactionStatus: { const: 'RCVD' },
    paymentId: { type: 'string', minLength: 1 },
    _links: { allOf: [{ $ref: '../common/links.json' }], required: ['confirmPayment', 'self'] },
  },
} as const;
