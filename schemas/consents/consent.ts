export const consentsConsentSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/consents/consent.json',
  title:
    'Read-consent response: access, recurringIndicator, validUntil, frequencyPerDay, consentStatus, _links with account',
  type: 'object',
  required: ['access', 'recurringIndicator', 'validUntil', 'frequencyPerDay', 'consentStatus', '_links'],
  properties: {
    access: { type: 'object' },
    recurringIndicator: { type: 'boolean' },
    validUntil: { type: 'string', format: 'date' },
    frequencyPerDay: { type: 'integer', minimum: 1 },
    consentStatus: {
      enum: ['received', 'rejected', 'valid', 'revokedByPsu', 'expired', 'terminatedByTpp'],
    },
    _links: { allOf: [{ $ref: '../common/links.json' }], required: ['account'] },
  },
} as const;
