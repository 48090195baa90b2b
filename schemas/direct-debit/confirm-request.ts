export const directDebitConfirmRequestSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/direct-debit/confirm-request.json',
  title: 'Confirm payment (endpoint section H 2): the ids of the direct debit payments to collect',
  type: 'object',
  required: ['paymentIds'],
  properties: {
    paymentIds: {
      type: 'array',
      minItems: 1,
      maxItems: 1000,
      uniqueItems: true,
      items: { type: 'string', minLength: 1 },
    },
  },
} as const;
