export const consentsConsentCreatedSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/consents/consent-created.json',
  title: 'Create-consent response: consentStatus, consentId, _links with status and scaStatus',
  type: 'object',
  required: ['consentStatus', 'consentId', '_links'],
  properties: {
    consentStatus: { type: 'string' },
    consentId: { type: 'string', minLength: 1 },
    _links: { allOf: [{ $ref: '../common/links.json' }], required: ['status', 'scaStatus'] },
  },
} as const;
