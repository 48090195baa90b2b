export const authorisationsAuthorisationStartSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/authorisations/authorisation-start.json',
  title:
    'Authorisation start response (consent operations table): scaStatus, authorisationId, psuMessage, _links.scaStatus',
  type: 'object',
  // authorisationId: the id the SCA status and update PSU data operations address. The other listed
  // fields are judged for their type when present, and for their presence by
  // authorisations/authorisation-start-complete (a SHOULD).
  required: ['authorisationId'],
  properties: {
    scaStatus: { type: 'string', minLength: 1 },
    authorisationId: { type: 'string', minLength: 1 },
    psuMessage: { type: 'string' },
    _links: { $ref: '../common/links.json' },
  },
} as const;
