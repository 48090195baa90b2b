export const directoryCitySchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/directory/city.json',
  title: 'City: cityId (uuid), name, isoCountryCode',
  type: 'object',
  required: ['cityId', 'name', 'isoCountryCode'],
  properties: {
    cityId: { type: 'string', format: 'uuid' },
    name: { type: 'string', minLength: 1 },
    isoCountryCode: { type: 'string', pattern: '^[A-Za-z]{2}$' },
  },
} as const;
