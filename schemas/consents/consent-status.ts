export const consentsConsentStatusSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/consents/consent-status.json',
  title: 'Consent status response: consentStatus',
  type: 'object',
  required: ['consentStatus'],
  properties: {
    consentStatus: {
      enum: ['received', 'rejected', 'valid', 'revokedByPsu', 'expired', 'terminatedByTpp'],
    },
  },
} as const;
