export const authorisationsAuthorisationStartedSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/authorisations/authorisation-started.json',
  title:
    'Start-authorisation response (flow guide, decoupled): chosenScaMethod, scaStatus started, challengeData, psuMessage, _links.scaStatus',
  type: 'object',
  required: ['chosenScaMethod', 'scaStatus', 'challengeData', '_links'],
  properties: {
    chosenScaMethod: { $ref: 'sca-method.json' },
    scaStatus: { const: 'started' },
    challengeData: { $ref: 'challenge-data.json' },
    psuMessage: { type: 'string' },
    _links: { allOf: [{ $ref: '../common/links.json' }], required: ['scaStatus'] },
  },
} as const;
