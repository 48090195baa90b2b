export const signingBasketsBasketRequestSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/signing-baskets/basket-request.json',
  title: 'Create-basket body: paymentIds, non-empty',
  type: 'object',
  required: ['paymentIds'],
  properties: {
    paymentIds: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
  },
} as const;
