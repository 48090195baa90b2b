export const directoryCityListSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/directory/city-list.json',
  title: 'List cities: cities',
  type: 'object',
  required: ['cities'],
  properties: { cities: { type: 'array', items: { $ref: 'city.json' } } },
} as const;
