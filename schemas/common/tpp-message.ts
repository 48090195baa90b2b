export const commonTppMessageSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/common/tpp-message.json',
  title: 'TPP message (Errors 1): category, code, path, text',
  type: 'object',
  required: ['category', 'code'],
  properties: {
    category: { type: 'string', minLength: 1 },
    code: { type: 'string', minLength: 1 },
    path: { type: 'string' },
    text: { type: 'string' },
  },
} as const;
