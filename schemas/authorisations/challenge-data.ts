export const authorisationsChallengeDataSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/authorisations/challenge-data.json',
  title:
    'challengeData: image, data (string or array of string), imageLink, otpMaxLength, otpFormat, additionalInformation',
  type: 'object',
  minProperties: 1,
  properties: {
    image: { type: 'string' },
    data: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
    imageLink: { type: 'string' },
    otpMaxLength: { type: 'integer' },
    otpFormat: { type: 'string' },
    additionalInformation: { type: 'string' },
  },
} as const;
