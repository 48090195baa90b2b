export const paymentsPaymentStatusValuesSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/payments/payment-status-values.json',
  title:
    'Payment status response whose transactionStatus is one of the ISO 20022 codes (reference-facts, Enumerations)',
  type: 'object',
  required: ['transactionStatus'],
  properties: {
    transactionStatus: {
      enum: [
        'ACCC',
        'ACCP',
        'ACSC',
        'ACSP',
        'ACTC',
        'ACWC',
        'ACWP',
        'RCVD',
        'PDNG',
        'RJCT',
        'CANC',
        'ACFC',
        'PATC',
        'PART',
      ],
    },
  },
} as const;
