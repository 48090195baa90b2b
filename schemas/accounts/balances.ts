export const accountsBalancesSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/accounts/balances.json',
  title: 'Balance response: balances (array of Balance), and account (with iban) when present',
  type: 'object',
  // `account` is listed with no rule that it is present (Berlin Group's own multicurrency example
  // leaves it out): typed when present; its presence is accounts.balances.complete (a SHOULD).
  required: ['balances'],
  properties: {
    account: { type: 'object', properties: { iban: { $ref: '../common/iban.json' } } },
    // An array, with no rule on how many: an account may have no balance to give.
    balances: { type: 'array', items: { $ref: 'balance.json' } },
  },
} as const;
