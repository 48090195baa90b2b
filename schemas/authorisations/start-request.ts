export const authorisationsStartRequestSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/authorisations/start-request.json',
  title: 'Start-authorisation body (endpoint section F 2): authenticationMethodId, a string taken from scaMethods',
  type: 'object',
  // "Body: `authenticationMethodId` (string), taken from scaMethods" (section F 2): the PUT that
  // starts an authorisation of a consent, a payment, a cancellation or a basket. Which strings are
  // valid is the authorisation's own list (scaMethods), not a pattern: the generated starts draw from it.
  required: ['authenticationMethodId'],
  properties: {
    authenticationMethodId: { type: 'string', minLength: 1 },
  },
} as const;
