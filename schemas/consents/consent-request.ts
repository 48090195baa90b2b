export const consentsConsentRequestSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/consents/consent-request.json',
  title: 'Create consent request body',
  type: 'object',
  required: ['access', 'recurringIndicator', 'validUntil', 'frequencyPerDay', 'combinedServiceIndicator'],
  properties: {
    access: { $ref: 'account-access.json' },
    recurringIndicator: { type: 'boolean' },
    validUntil: { type: 'string', format: 'date' },
    frequencyPerDay: { type: 'integer', minimum: 1, maximum: 4 },
    combinedServiceIndicator: { type: 'boolean' },
  },
} as const;
