export const accountsTransactionListSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/accounts/transaction-list.json',
  title: 'Transaction list response: account (with iban), transactions (booked, pending, _links.account)',
  type: 'object',
  required: ['account', 'transactions'],
  properties: {
    account: { type: 'object', properties: { iban: { $ref: '../common/iban.json' } } },
    transactions: {
      type: 'object',
      required: ['_links'],
      properties: {
        booked: { type: 'array', items: { $ref: 'transaction.json' } },
        pending: { type: 'array', items: { $ref: 'transaction.json' } },
        _links: { allOf: [{ $ref: '../common/links.json' }], required: ['account'] },
      },
    },
  },
} as const;
