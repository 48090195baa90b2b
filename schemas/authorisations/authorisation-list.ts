export const authorisationsAuthorisationListSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/authorisations/authorisation-list.json',
  title: 'Authorisation list: authorisationIds',
  type: 'object',
  required: ['authorisationIds'],
  properties: { authorisationIds: { type: 'array', items: { type: 'string' } } },
} as const;
