export const accountsTransactionListSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/accounts/transaction-list.json',
  title:
    'Transaction list response: transactions (booked, pending, _links.account), or a _links.download link instead of the lists; account (with iban) when present',
  type: 'object',
  // `account` is listed with no rule that it is present: typed when present; its presence is
  // accounts.transactions.complete (a SHOULD). A list too large to return may be answered with a
  // `download` link (a link name the specification lists) instead of `transactions`.
  anyOf: [{ required: ['transactions'] }, { required: ['_links'], properties: { _links: { required: ['download'] } } }],
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
    _links: { $ref: '../common/links.json' },
  },
} as const;
