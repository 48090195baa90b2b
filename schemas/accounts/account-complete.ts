export const accountsAccountCompleteSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/accounts/account-complete.json',
  title:
    'Account carrying its currency as well as its resourceId (presence only: the types are judged by account.json)',
  type: 'object',
  required: ['resourceId', 'currency'],
} as const;
