export const accountsTransactionListSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/accounts/transaction-list.json',
  title:
    'Transaction list response: transactions (booked, pending, and _links.account when given), or a _links.download link instead of the lists; account (with iban) when present',
  type: 'object',
  // `account` is listed with no rule that it is present: typed when present; its presence is
  // accounts.transactions.complete (a SHOULD). A list too large to return may be answered with a
  // `download` link (a link name the specification lists) instead of `transactions`.
  anyOf: [{ required: ['transactions'] }, { required: ['_links'], properties: { _links: { required: ['download'] } } }],
  properties: {
    account: { type: 'object', properties: { iban: { $ref: '../common/iban.json' } } },
    // transactions._links (account) is listed, not required: typed when given.
    transactions: {
      type: 'object',
      properties: {
        booked: { type: 'array', items: { $ref: 'transaction.json' } },
        pending: { type: 'array', items: { $ref: 'transaction.json' } },
        _links: { $ref: '../common/links.json' },
      },
    },
    _links: { $ref: '../common/links.json' },
  },
} as const;
