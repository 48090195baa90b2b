export const authorisationsAuthorisationStartedRedirectSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/authorisations/authorisation-started-redirect.json',
  title:
    'Start-authorisation response (flow guide, redirect): _links.scaOAuth, chosenScaMethod, scaStatus started, psuMessage',
  type: 'object',
  // "challengeData or the scaOAuth link is returned" (States > Authorisation, received -> started):
  // a start answered aspsp-sca-approach REDIRECT carries the scaOAuth link ("The response has
  // `_links.scaOAuth.href`", section F, redirect flow). The other listed fields are judged for their
  // type when present; authorisations/authorisation-started judges a decoupled start.
  required: ['_links'],
  properties: {
    chosenScaMethod: { $ref: 'sca-method.json' },
    scaStatus: { const: 'started' },
    challengeData: { $ref: 'challenge-data.json' },
    psuMessage: { type: 'string' },
    _links: { allOf: [{ $ref: '../common/links.json' }, { required: ['scaOAuth'] }] },
  },
} as const;
