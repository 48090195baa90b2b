export const paymentsPaymentInitiatedCompleteSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/payments/payment-initiated-complete.json',
  title:
    'Initiate-payment response carrying every listed field: transactionStatus, paymentId, _links self, status and scaStatus (or startAuthorisation, the multilevel SCA start) (presence only: the types are judged by payment-initiated.json)',
  type: 'object',
  required: ['transactionStatus', 'paymentId', '_links'],
  properties: {
    _links: {
      type: 'object',
      required: ['self', 'status'],
      anyOf: [{ required: ['scaStatus'] }, { required: ['startAuthorisation'] }],
    },
  },
} as const;
