export const consentsConsentCompleteSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/consents/consent-complete.json',
  title:
    'Read-consent response carrying every listed field: access, recurringIndicator, validUntil, frequencyPerDay, consentStatus, _links account (presence only: the types are judged by consent.json)',
  type: 'object',
  required: ['access', 'recurringIndicator', 'validUntil', 'frequencyPerDay', 'consentStatus', '_links'],
  properties: { _links: { type: 'object', required: ['account'] } },
} as const;
