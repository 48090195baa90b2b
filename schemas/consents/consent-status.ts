export const consentsConsentStatusSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/consents/consent-status.json',
  title: 'Consent status response: consentStatus',
  type: 'object',
  required: ['consentStatus'],
  properties: {
    // A string: the specification only shows values ("Values seen: `received`, `valid`"); the
    // Berlin Group list is consents.status.values (a SHOULD).
    consentStatus: { type: 'string' },
  },
} as const;
