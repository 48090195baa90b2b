export const paymentsCancellationAcceptedCompleteSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/payments/cancellation-accepted-complete.json',
  title:
    'Cancel-payment response carrying the listed links self and status (presence only: the types are judged by cancellation-accepted.json)',
  type: 'object',
  required: ['transactionStatus', '_links'],
  properties: { _links: { type: 'object', required: ['self', 'status'] } },
} as const;
