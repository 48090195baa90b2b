export const paymentsCancellationAcceptedSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/payments/cancellation-accepted.json',
  title: 'Cancel-payment 202 response: transactionStatus and _links self, status (startAuthorisation when mandated)',
  type: 'object',
  // transactionStatus: the cancellation's next state is "the status in the response" (States > Payment).
  // The links are judged for their type when present, and for their presence by
  // payments/cancellation-accepted-complete (a SHOULD); startAuthorisation by its own rule.
  required: ['transactionStatus'],
  properties: {
    transactionStatus: { type: 'string', pattern: '^[A-Z]{4}$' },
    _links: { $ref: '../common/links.json' },
  },
} as const;
