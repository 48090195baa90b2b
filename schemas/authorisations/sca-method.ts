export const authorisationsScaMethodSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/authorisations/sca-method.json',
  title: 'SCA method: authenticationType, authenticationMethodId, name',
  type: 'object',
  required: ['authenticationType', 'authenticationMethodId', 'name'],
  properties: {
    authenticationType: { type: 'string', minLength: 1 },
    authenticationMethodId: { type: 'string', minLength: 1 },
    name: { type: 'string', minLength: 1 },
  },
} as const;
