export const accountsTransactionDetailsSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/accounts/transaction-details.json',
  title: 'Transaction details response: key transactionsDetails holding one Transaction',
  type: 'object',
  required: ['transactionsDetails'],
  properties: { transactionsDetails: { $ref: 'transaction.json' } },
} as const;
