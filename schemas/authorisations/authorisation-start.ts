export const authorisationsAuthorisationStartSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/authorisations/authorisation-start.json',
  title:
    'Authorisation start response (consent operations table): scaStatus, authorisationId, psuMessage, _links.scaStatus',
  type: 'object',
  required: ['scaStatus', 'authorisationId', 'psuMessage', '_links'],
  properties: {
    scaStatus: { type: 'string', minLength: 1 },
    authorisationId: { type: 'string', minLength: 1 },
    psuMessage: { type: 'string' },
    _links: { allOf: [{ $ref: '../common/links.json' }], required: ['scaStatus'] },
  },
} as const;
