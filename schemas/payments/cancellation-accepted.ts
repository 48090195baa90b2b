export const paymentsCancellationAcceptedSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/payments/cancellation-accepted.json',
  title: 'Cancel-payment 202 response: transactionStatus and _links self, status (startAuthorisation when mandated)',
  type: 'object',
  required: ['transactionStatus', '_links'],
  properties: {
    transactionStatus: { type: 'string', pattern: '^[A-Z]{4}$' },
    _links: { allOf: [{ $ref: '../common/links.json' }], required: ['self', 'status'] },
  },
} as const;
