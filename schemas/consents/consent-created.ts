export const consentsConsentCreatedSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/consents/consent-created.json',
  title: 'Create-consent response: consentStatus, consentId, _links with status and scaStatus',
  type: 'object',
  // consentId and the links status and scaStatus: the consent state table's rule, "consentId and the
  // links `status` and `scaStatus` are returned" (none → received). consentStatus is only listed: it
  // is judged for its type when present, and for its presence by consents/consent-created-complete
  // (a SHOULD).
  required: ['consentId', '_links'],
  properties: {
    consentStatus: { type: 'string' },
    consentId: { type: 'string', minLength: 1 },
    _links: { allOf: [{ $ref: '../common/links.json' }], required: ['status', 'scaStatus'] },
  },
} as const;
