export const authorisationsAuthorisationStartCompleteSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/authorisations/authorisation-start-complete.json',
  title:
    'Authorisation start response carrying every listed field: scaStatus, authorisationId, psuMessage, _links.scaStatus (presence only: the types are judged by authorisation-start.json)',
  type: 'object',
  required: ['scaStatus', 'authorisationId', 'psuMessage', '_links'],
  properties: { _links: { type: 'object', required: ['scaStatus'] } },
} as const;
