export const accountsAmountSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/accounts/amount.json',
  title:
    'Amount of a balance or transaction as the specification states it: currency, amount as a string (the amount pattern is checked apart, common/amount)',
  type: 'object',
  required: ['currency', 'amount'],
  properties: {
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
    amount: { type: 'string', minLength: 1 },
  },
} as const;
