export const directDebitPaymentCreatedCompleteSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/direct-debit/payment-created-complete.json',
  title:
    'Create SEPA direct debit payment response carrying every listed field: transactionStatus, paymentId, _links confirmPayment and self (presence only: the types are judged by payment-created.json)',
  type: 'object',
  required: ['transactionStatus', 'paymentId', '_links'],
  properties: { _links: { type: 'object', required: ['confirmPayment', 'self'] } },
} as const;
