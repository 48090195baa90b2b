export const signingBasketsBasketCreatedSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/signing-baskets/basket-created.json',
  title: 'Create-basket response: basketId, transactionStatus, _links self, status, startAuthorisation',
  type: 'object',
  // basketId: "basketId returned" (States > create signing basket), the id the basket operations address.
  // The other listed fields are judged for their type when present, and for their presence by
  // signing-baskets/basket-created-complete (a SHOULD).
  required: ['basketId'],
  properties: {
    basketId: { type: 'string', minLength: 1 },
    transactionStatus: { type: 'string', pattern: '^[A-Z]{4}$' },
    _links: { $ref: '../common/links.json' },
  },
} as const;
