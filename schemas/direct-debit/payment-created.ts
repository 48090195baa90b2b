export const directDebitPaymentCreatedSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/direct-debit/payment-created.json',
  title:
    'Create SEPA direct debit payment response (endpoint section H 1): transactionStatus RCVD, paymentId, _links confirmPayment and self',
  type: 'object',
  // paymentId: the id confirm (paymentIds) and get payment address. transactionStatus (RCVD when present)
  // and _links are judged for their type, and for their presence by direct-debit/payment-created-complete
  // (a SHOULD); the links' targets by direct-debit.create.links.
  required: ['paymentId'],
  properties: {
    transactionStatus: { const: 'RCVD' },
    paymentId: { type: 'string', minLength: 1 },
    _links: { $ref: '../common/links.json' },
  },
} as const;
