export const accountsTransactionCompleteSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/accounts/transaction-complete.json',
  title: 'Transaction carrying transactionAmount (presence only: the types are judged by transaction.json)',
  type: 'object',
  required: ['transactionAmount'],
  properties: { balanceAfterTransaction: { type: 'object', required: ['balanceAmount'] } },
} as const;
