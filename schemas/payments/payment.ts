export const paymentsPaymentSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/payments/payment.json',
  title:
    'Read-payment response: the submitted fields plus transactionStatus (remittanceInformationStructured, tppMessages may be added)',
  type: 'object',
  // Nothing is required by the schema: "returns the submitted fields" is judged field by field against
  // the body sent (payments.read.fields); the fields it adds ("plus ...") are judged for their type
  // when present, and transactionStatus for its presence by payments/payment-complete (a SHOULD).
  properties: {
    transactionStatus: { type: 'string', pattern: '^[A-Z]{4}$' },
    remittanceInformationStructured: {
      type: 'object',
      required: ['reference'],
      properties: {
        reference: { type: 'string', maxLength: 35 },
        referenceType: { type: 'string', maxLength: 35 },
        referenceIssuer: { type: 'string', maxLength: 35 },
      },
    },
    tppMessages: { type: 'array', items: { $ref: '../common/tpp-message.json' } },
  },
} as const;
