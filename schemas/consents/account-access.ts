export const consentsAccountAccessSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/consents/account-access.json',
  title:
    'accountAccess: balances and transactions (and accounts), arrays of account references by iban, maskedPan or pan',
  type: 'object',
  properties: {
    accounts: { $ref: '#/$defs/references' },
    balances: { $ref: '#/$defs/references' },
    transactions: { $ref: '#/$defs/references' },
  },
  $defs: {
    references: {
      type: 'array',
      items: {
        allOf: [{ $ref: '../common/account-reference.json' }],
        anyOf: [{ required: ['iban'] }, { required: ['maskedPan'] }, { required: ['pan'] }],
      },
    },
  },
} as const;
