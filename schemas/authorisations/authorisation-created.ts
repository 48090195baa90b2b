export const authorisationsAuthorisationCreatedSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/authorisations/authorisation-created.json',
  title:
    'Create-authorisation response (flow guide): authorisationId, scaStatus received, scaMethods, _links (redirect flow: authoriseTransaction, scaStatus)',
  type: 'object',
  // authorisationId and scaMethods: "authorisationId and the list of SCA methods are returned" (States >
  // Authorisation); the start addresses the id and takes its method "from scaMethods". scaStatus (received
  // when present) and _links are judged for their type, and for their presence by
  // authorisations/authorisation-created-complete (a SHOULD).
  required: ['authorisationId', 'scaMethods'],
  properties: {
    authorisationId: { type: 'string', minLength: 1 },
    scaStatus: { const: 'received' },
    // The array the response names; how many methods it holds is not stated (an empty one is judged where a method is needed).
    scaMethods: { type: 'array', items: { $ref: 'sca-method.json' } },
    _links: { $ref: '../common/links.json' },
  },
} as const;
