export const paymentsPaymentInitiatedSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/payments/payment-initiated.json',
  title:
    'Initiate-payment response: transactionStatus, paymentId, _links self, status and scaStatus or startAuthorisation',
  type: 'object',
  // paymentId and links: the payment state table's rule, "paymentId and links returned" (none → RCVD);
  // which links it names is not stated there. transactionStatus and the listed link names (self,
  // status, scaStatus) are judged for their type when present, and for their presence by
  // payments/payment-initiated-complete (a SHOULD).
  required: ['paymentId', '_links'],
  properties: {
    transactionStatus: { type: 'string', pattern: '^[A-Z]{4}$' },
    paymentId: { type: 'string', minLength: 1 },
    _links: { allOf: [{ $ref: '../common/links.json' }], minProperties: 1 },
  },
} as const;
