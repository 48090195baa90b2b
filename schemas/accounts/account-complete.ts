export const accountsAccountCompleteSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/accounts/account-complete.json',
  title:
    'Account carrying every field the specification lists for it: resourceId, iban, currency, product, cashAccountType, name, clearingNumber and _links with balances and transactions (presence only: the types are judged by account.json, the links by accounts.account.links)',
  type: 'object',
  required: ['resourceId', 'iban', 'currency', 'product', 'cashAccountType', 'name', 'clearingNumber', '_links'],
  properties: { _links: { type: 'object', required: ['balances', 'transactions'] } },
} as const;
