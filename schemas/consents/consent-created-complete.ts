export const consentsConsentCreatedCompleteSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/consents/consent-created-complete.json',
  title:
    'Create-consent response carrying every listed field: consentStatus, consentId, _links status and scaStatus (presence only: the types are judged by consent-created.json)',
  type: 'object',
  required: ['consentStatus', 'consentId', '_links'],
  properties: { _links: { type: 'object', required: ['status', 'scaStatus'] } },
} as const;
