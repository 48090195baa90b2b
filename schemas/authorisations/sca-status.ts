export const authorisationsScaStatusSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/authorisations/sca-status.json',
  title: 'Authorisation SCA status response: scaStatus, challengeData, tppMessages',
  type: 'object',
  required: ['scaStatus'],
  properties: {
    scaStatus: { type: 'string', minLength: 1 },
    challengeData: { $ref: 'challenge-data.json' },
    tppMessages: { type: 'array' },
  },
} as const;
