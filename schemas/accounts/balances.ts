export const accountsBalancesSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/accounts/balances.json',
  title: 'Balance response: account (with iban) and balances (array of Balance)',
  type: 'object',
  required: ['account', 'balances'],
  properties: {
    account: { type: 'object', properties: { iban: { $ref: '../common/iban.json' } } },
    balances: { type: 'array', minItems: 1, items: { $ref: 'balance.json' } },
  },
} as const;
