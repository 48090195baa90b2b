export const accountsAccountDetailSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/accounts/account-detail.json',
  title: 'Account detail response: account (Account)',
  type: 'object',
  required: ['account'],
  properties: { account: { $ref: 'account.json' } },
} as const;
