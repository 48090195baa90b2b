export const signingBasketsBasketCompleteSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/signing-baskets/basket-complete.json',
  title: 'Read-basket response carrying its transactionStatus (presence only: the types are judged by basket.json)',
  type: 'object',
  required: ['paymentIds', 'transactionStatus'],
} as const;
