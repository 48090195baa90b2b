export const authorisationsScaMethodCompleteSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/authorisations/sca-method-complete.json',
  title:
    'SCA method carrying every listed field: authenticationType, authenticationMethodId, name (presence only: the types are judged by sca-method.json)',
  type: 'object',
  required: ['authenticationType', 'authenticationMethodId', 'name'],
} as const;
