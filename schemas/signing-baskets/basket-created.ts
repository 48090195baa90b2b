export const signingBasketsBasketCreatedSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/signing-baskets/basket-created.json',
  title: 'Create-basket response: basketId, transactionStatus, _links self, status, startAuthorisation',
  type: 'object',
  required: ['basketId', 'transactionStatus', '_links'],
  properties: {
    basketId: { type: 'string', minLength: 1 },
    transactionStatus: { type: 'string', pattern: '^[A-Z]{4}$' },
    _links: {
      allOf: [{ $ref: '../common/links.json' }],
      required: ['self', 'status', 'startAuthorisation'],
    },
  },
} as const;
