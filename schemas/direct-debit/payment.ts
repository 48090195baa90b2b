export const directDebitPaymentSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/direct-debit/payment.json',
  title: "Get SEPA direct debit payment response (endpoint section H 3): the payment's fields and transactionStatus",
  type: 'object',
  required: ['transactionStatus', 'instructedAmount', 'creditorAccount', 'debtorAccount'],
  properties: {
    transactionStatus: { $ref: '../payments/payment-status.json#/properties/transactionStatus' },
    instructedAmount: { $ref: '../common/amount.json' },
    creditorAccount: {
      type: 'object',
      required: ['iban'],
      properties: { iban: { type: 'string' } },
    },
    debtorAccount: {
      type: 'object',
      required: ['iban'],
      properties: { iban: { type: 'string' } },
    },
    creditorName: { type: 'string' },
    creditorId: { type: 'string' },
    debtorName: { type: 'string' },
    localInstrumentCode: { type: 'string' },
    sequenceType: { type: 'string' },
    mandateRelatedInformation: {
      type: 'object',
      properties: { mandateId: { type: 'string' }, dateOfSignature: { type: 'string' } },
    },
    requestedExecutionDate: { type: 'string' },
    remittanceInformationUnstructuredArray: { type: 'array', items: { type: 'string' } },
  },
} as const;
