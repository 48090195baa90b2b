export const authorisationsAuthorisationCreatedSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/authorisations/authorisation-created.json',
  title:
    'Create-authorisation response (flow guide): authorisationId, scaStatus received, scaMethods, _links.scaStatus',
  type: 'object',
  required: ['authorisationId', 'scaStatus', 'scaMethods', '_links'],
  properties: {
    authorisationId: { type: 'string', minLength: 1 },
    scaStatus: { const: 'received' },
    scaMethods: { type: 'array', minItems: 1, items: { $ref: 'sca-method.json' } },
    _links: { allOf: [{ $ref: '../common/links.json' }], required: ['scaStatus'] },
  },
} as const;
