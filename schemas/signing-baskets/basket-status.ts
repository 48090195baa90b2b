export const signingBasketsBasketStatusSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/signing-baskets/basket-status.json',
  title: 'Basket status response: transactionStatus, tppMessages',
  type: 'object',
  required: ['transactionStatus'],
  properties: {
    transactionStatus: { type: 'string', pattern: '^[A-Z]{4}$' },
    tppMessages: { type: 'array', items: { $ref: '../common/tpp-message.json' } },
  },
} as const;
