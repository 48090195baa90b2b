export const paymentsPaymentCompleteSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/payments/payment-complete.json',
  title:
    'Read-payment response carrying its transactionStatus (presence only: the types are judged by payment.json; remittanceInformationStructured and tppMessages need not be there)',
  type: 'object',
  required: ['transactionStatus'],
} as const;
