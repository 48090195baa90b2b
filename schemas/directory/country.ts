export const directoryCountrySchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/directory/country.json',
  title: 'Country: id, isoCountryCode (two letters), name',
  type: 'object',
  required: ['id', 'isoCountryCode', 'name'],
  properties: {
    id: { type: 'string', minLength: 1 },
    isoCountryCode: { type: 'string', pattern: '^[A-Za-z]{2}$' },
    name: { type: 'string', minLength: 1 },
  },
} as const;
