export const commonErrorSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/common/error.json',
  title: 'Error body: a non-empty tppMessages array',
  type: 'object',
  required: ['tppMessages'],
  properties: { tppMessages: { type: 'array', minItems: 1, items: { $ref: 'tpp-message.json' } } },
} as const;
