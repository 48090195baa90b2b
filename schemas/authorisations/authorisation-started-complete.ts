export const authorisationsAuthorisationStartedCompleteSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/authorisations/authorisation-started-complete.json',
  title:
    'Start-authorisation response (flow guide) carrying every listed field: chosenScaMethod, scaStatus, challengeData, psuMessage, _links.scaStatus (presence only: the types are judged by authorisation-started.json)',
  type: 'object',
  required: ['chosenScaMethod', 'scaStatus', 'challengeData', 'psuMessage', '_links'],
  properties: { _links: { type: 'object', required: ['scaStatus'] } },
} as const;
