export const directDebitConfirmResponseSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/direct-debit/confirm-response.json',
  title:
    'Confirm payment response (endpoint section H 2): one tppMessage, category INFORMATION, code FILE_UPLOADED, text carrying the file reference',
  type: 'object',
  required: ['tppMessages'],
  properties: {
    tppMessages: {
      type: 'array',
      minItems: 1,
      maxItems: 1,
      items: {
        allOf: [{ $ref: '../common/tpp-message.json' }],
        required: ['category', 'code', 'text'],
        properties: {
          category: { const: 'INFORMATION' },
          code: { const: 'FILE_UPLOADED' },
          text: { type: 'string', minLength: 1 },
        },
      },
    },
  },
} as const;
