export const authorisationsUpdatePsuDataDecoupledSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/authorisations/update-psu-data-decoupled.json',
  title: 'Update PSU data response (decoupled): scatransactionStatus (spelled so), psuMessage, _links.scaStatus',
  type: 'object',
  required: ['scatransactionStatus', 'psuMessage', '_links'],
  properties: {
    scatransactionStatus: { type: 'string', minLength: 1 },
    psuMessage: { type: 'string' },
    _links: { allOf: [{ $ref: '../common/links.json' }], required: ['scaStatus'] },
  },
} as const;
