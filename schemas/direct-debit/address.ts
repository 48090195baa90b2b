export const directDebitAddressSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/direct-debit/address.json',
  title:
    'Postal address of a direct debit party (pain.008 PostalAddress6 limits); the field table also allows one string',
  oneOf: [
    {
      type: 'object',
      required: ['country'],
      properties: {
        street: { type: 'string', maxLength: 70 },
        buildingNumber: { type: 'string', maxLength: 16 },
        city: { type: 'string', maxLength: 35 },
        postalCode: { type: 'string', maxLength: 16 },
        country: { type: 'string', pattern: '^[A-Z]{2}$' },
      },
    },
    { type: 'string', minLength: 1, maxLength: 70 },
  ],
} as const;
