export const signingBasketsBasketSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/signing-baskets/basket.json',
  title: 'Read-basket response: paymentIds, transactionStatus',
  type: 'object',
  // paymentIds: "non-empty; in the create body and the read response" (Signing basket). transactionStatus
  // is judged for its type when present, and for its presence by signing-baskets/basket-complete (a SHOULD).
  required: ['paymentIds'],
  properties: {
    paymentIds: { type: 'array', minItems: 1, items: { type: 'string' } },
    transactionStatus: { type: 'string', pattern: '^[A-Z]{4}$' },
  },
} as const;
