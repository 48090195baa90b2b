export const accountsTransactionCompleteSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/accounts/transaction-complete.json',
  title:
    'Transaction carrying the fields the specification lists for every entry: transactionId, creditorName, creditorAccount (iban), debtorName, debtorAccount (iban), transactionAmount (currency, amount), valueDate, remittanceInformationUnstructured, bankTransactionCode; a balanceAfterTransaction its balanceAmount and balanceType (presence only: the types are judged by transaction.json). bookingDate (booked entries only: pending ones carry none in the example) is checked by the test; mandateId (a direct debit entry) and balanceAfterTransaction (a running balance) belong to some entries only and are not required.',
  type: 'object',
  required: [
    'transactionId',
    'creditorName',
    'creditorAccount',
    'debtorName',
    'debtorAccount',
    'transactionAmount',
    'valueDate',
    'remittanceInformationUnstructured',
    'bankTransactionCode',
  ],
  properties: {
    creditorAccount: { type: 'object', required: ['iban'] },
    debtorAccount: { type: 'object', required: ['iban'] },
    transactionAmount: { type: 'object', required: ['currency', 'amount'] },
    balanceAfterTransaction: { type: 'object', required: ['balanceAmount', 'balanceType'] },
  },
} as const;
