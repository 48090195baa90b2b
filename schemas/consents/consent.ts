export const consentsConsentSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/consents/consent.json',
  title:
    'Read-consent response: access, recurringIndicator, validUntil, frequencyPerDay, consentStatus, _links with account',
  type: 'object',
  // validUntil: "The read-consent response carries the adjusted date" (Consent, request body). The other
  // listed fields are judged for their type when present, and for their presence by
  // consents/consent-complete (a SHOULD).
  required: ['validUntil'],
  properties: {
    access: { type: 'object' },
    recurringIndicator: { type: 'boolean' },
    validUntil: { type: 'string', format: 'date' },
    frequencyPerDay: { type: 'integer', minimum: 1 },
    // A string: the specification only shows values ("Values seen: `received`, `valid`"); the
    // Berlin Group list is consents.status.values (a SHOULD).
    consentStatus: { type: 'string' },
    _links: { $ref: '../common/links.json' },
  },
} as const;
