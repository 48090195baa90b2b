export const accountsAccountListSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/accounts/account-list.json',
  title: 'List accounts response: accounts (array of Account)',
  type: 'object',
  required: ['accounts'],
  properties: { accounts: { type: 'array', items: { $ref: 'account.json' } } },
} as const;
