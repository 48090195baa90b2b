export const directoryAspspDetailSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/directory/aspsp-detail.json',
  title: 'Bank detail: the ASPSP detail fields with their types',
  type: 'object',
  required: ['bicFi', 'name'],
  properties: {
    bicFi: { $ref: '../common/bicfi.json' },
    name: { type: 'string', minLength: 1 },
    city: { type: 'string' },
    country: { type: 'string' },
    postalCode: { type: 'string' },
    streetAddress: { type: 'string' },
    companyNumber: { type: 'string' },
    phone: { type: 'string' },
    globalPaymentProducts: { type: 'array', items: { type: 'string' } },
    supportedAuthorizationMethods: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'uri'],
        properties: { name: { type: 'string' }, uri: { type: 'string' } },
      },
    },
    affiliatedAspsps: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'name'],
        properties: { id: { type: 'string' }, name: { type: 'string' } },
      },
    },
  },
} as const;
