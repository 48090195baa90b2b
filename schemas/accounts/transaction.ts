export const accountsTransactionSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/accounts/transaction.json',
  title: 'Transaction: amounts as strings (may be negative), dates as ISO dates, references with iban',
  type: 'object',
  // Listed fields with no stated rule: judged for their type when present; presence is
  // accounts/transaction-complete (a SHOULD).
  properties: {
    transactionId: { type: 'string', minLength: 1 },
    entryReference: { type: 'string' },
    creditorName: { type: 'string' },
    creditorAccount: { $ref: '../common/account-reference.json' },
    debtorName: { type: 'string' },
    debtorAccount: { $ref: '../common/account-reference.json' },
    transactionAmount: { $ref: 'amount.json' },
    balanceAfterTransaction: {
      type: 'object',
      properties: { balanceAmount: { $ref: 'amount.json' }, balanceType: { type: 'string' } },
    },
    bookingDate: { type: 'string', format: 'date' },
    valueDate: { type: 'string', format: 'date' },
    remittanceInformationUnstructured: { type: 'string' },
    mandateId: { type: 'string' },
    bankTransactionCode: { type: 'string' },
    _links: { $ref: '../common/links.json' },
  },
} as const;
