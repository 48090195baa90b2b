export const authorisationsAuthorisationStartedSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/authorisations/authorisation-started.json',
  title:
    'Start-authorisation response (flow guide, decoupled): chosenScaMethod, scaStatus started, challengeData, psuMessage, _links.scaStatus',
  type: 'object',
  // challengeData: "challengeData or the scaOAuth link is returned" (States > Authorisation, received ->
  // started); a decoupled start has no scaOAuth link and its flow reads the token from challengeData. The
  // other listed fields are judged for their type when present (scaStatus: started), and for their
  // presence by authorisations/authorisation-started-complete (a SHOULD).
  required: ['challengeData'],
  properties: {
    chosenScaMethod: { $ref: 'sca-method.json' },
    scaStatus: { const: 'started' },
    challengeData: { $ref: 'challenge-data.json' },
    psuMessage: { type: 'string' },
    _links: { $ref: '../common/links.json' },
  },
} as const;
