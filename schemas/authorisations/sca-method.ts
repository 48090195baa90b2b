export const authorisationsScaMethodSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/authorisations/sca-method.json',
  title: 'SCA method: authenticationType, authenticationMethodId, name',
  type: 'object',
  // authenticationMethodId: the start's body takes it "from scaMethods" (endpoint section F 2). The other
  // listed fields are judged for their type when present, and for their presence by
  // authorisations/sca-method-complete (a SHOULD).
  required: ['authenticationMethodId'],
  properties: {
    authenticationType: { type: 'string', minLength: 1 },
    authenticationMethodId: { type: 'string', minLength: 1 },
    name: { type: 'string', minLength: 1 },
  },
} as const;
