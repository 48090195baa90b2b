export const authorisationsUpdatePsuDataDecoupledCompleteSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/authorisations/update-psu-data-decoupled-complete.json',
  title:
    'Update PSU data response (decoupled) carrying every listed field: scatransactionStatus, psuMessage, _links.scaStatus (presence only: the types are judged by update-psu-data-decoupled.json)',
  type: 'object',
  required: ['scatransactionStatus', 'psuMessage', '_links'],
  properties: { _links: { type: 'object', required: ['scaStatus'] } },
} as const;
