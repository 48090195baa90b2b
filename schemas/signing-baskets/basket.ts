export const signingBasketsBasketSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/signing-baskets/basket.json',
  title: 'Read-basket response: paymentIds, transactionStatus',
  type: 'object',
  required: ['paymentIds', 'transactionStatus'],
  properties: {
    paymentIds: { type: 'array', minItems: 1, items: { type: 'string' } },
    transactionStatus: { type: 'string', pattern: '^[A-Z]{4}$' },
  },
} as const;
