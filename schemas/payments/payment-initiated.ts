export const paymentsPaymentInitiatedSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/payments/payment-initiated.json',
  title:
    'Initiate-payment response: transactionStatus, paymentId, _links self, status and scaStatus or startAuthorisation',
  type: 'object',
  required: ['transactionStatus', 'paymentId', '_links'],
  properties: {
    transactionStatus: { type: 'string', pattern: '^[A-Z]{4}$' },
    paymentId: { type: 'string', minLength: 1 },
    _links: {
      allOf: [{ $ref: '../common/links.json' }],
      required: ['self', 'status'],
      anyOf: [{ required: ['scaStatus'] }, { required: ['startAuthorisation'] }],
    },
  },
} as const;
