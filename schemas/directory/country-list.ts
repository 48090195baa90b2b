export const directoryCountryListSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/directory/country-list.json',
  title: 'List countries: countries',
  type: 'object',
  required: ['countries'],
  properties: { countries: { type: 'array', items: { $ref: 'country.json' } } },
} as const;
