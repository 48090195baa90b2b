export const commonAmountSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/common/amount.json',
  title: 'Amount: currency (ISO 4217) and amount as a string',
  type: 'object',
  required: ['currency', 'amount'],
  properties: {
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
    amount: { type: 'string', pattern: '^-?[0-9]{1,14}(\\.[0-9]{1,3})?$' },
  },
} as const;
