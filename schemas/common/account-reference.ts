export const commonAccountReferenceSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/common/account-reference.json',
  title: 'Account reference: iban, bban, pan, maskedPan, msisdn, clearingNumber, currency',
  type: 'object',
  properties: {
    iban: { $ref: 'iban.json' },
    bban: { type: 'string', pattern: '^[a-zA-Z0-9]{1,30}$' },
    pan: { type: 'string', maxLength: 35 },
    maskedPan: { type: 'string', maxLength: 35 },
    msisdn: { type: 'string', maxLength: 35 },
    clearingNumber: { type: 'string', pattern: '^[0-9]{1,5}$' },
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
  },
} as const;
