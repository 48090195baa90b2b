export const signingBasketsBasketCreatedCompleteSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/signing-baskets/basket-created-complete.json',
  title:
    'Create-basket response carrying every listed field: basketId, transactionStatus, _links self, status, startAuthorisation (presence only: the types are judged by basket-created.json)',
  type: 'object',
  required: ['basketId', 'transactionStatus', '_links'],
  properties: { _links: { type: 'object', required: ['self', 'status', 'startAuthorisation'] } },
} as const;
