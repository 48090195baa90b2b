export const accountsAccountSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/accounts/account.json',
  title:
    'Account: resourceId, iban, currency (XXX for multicurrency), product, cashAccountType, name, clearingNumber, _links',
  type: 'object',
  // Only the id the account reads address is required; the other listed fields are judged for their
  // type when present, and for their presence by accounts/account-complete (a SHOULD).
  required: ['resourceId'],
  properties: {
    resourceId: { type: 'string', minLength: 1 },
    iban: { $ref: '../common/iban.json' },
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
    product: { type: 'string' },
    cashAccountType: { type: 'string' },
    name: { type: 'string' },
    clearingNumber: { type: 'string' },
    balances: { type: 'array', items: { $ref: 'balance.json' } },
    _links: { $ref: '../common/links.json' },
  },
} as const;
