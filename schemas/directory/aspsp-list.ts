export const directoryAspspListSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/directory/aspsp-list.json',
  title: 'List banks: aspsps, each with bicFi and name',
  type: 'object',
  required: ['aspsps'],
  properties: {
    aspsps: {
      type: 'array',
      items: {
        type: 'object',
        required: ['bicFi', 'name'],
        properties: {
          bicFi: { $ref: '../common/bicfi.json' },
          name: { type: 'string', minLength: 1 },
        },
      },
    },
  },
} as const;
