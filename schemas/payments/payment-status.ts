export const paymentsPaymentStatusSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/payments/payment-status.json',
  title: 'Payment status response: transactionStatus',
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
    tppMessages: { type: 'array', items: { $ref: '../common/tpp-message.json' } },
  },
} as const;
