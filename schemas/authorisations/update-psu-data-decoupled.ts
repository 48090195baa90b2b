export const authorisationsUpdatePsuDataDecoupledSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/authorisations/update-psu-data-decoupled.json',
  title: 'Update PSU data response (decoupled): scatransactionStatus (spelled so), psuMessage, _links.scaStatus',
  type: 'object',
  // Nothing is required: no sentence gives these fields a rule and the flow reads none of them (the SCA
  // status has its own operation). They are judged for their type when present, and for their presence
  // by authorisations/update-psu-data-decoupled-complete (a SHOULD).
  properties: {
    scatransactionStatus: { type: 'string', minLength: 1 },
    psuMessage: { type: 'string' },
    _links: { $ref: '../common/links.json' },
  },
} as const;
