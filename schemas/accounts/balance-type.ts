export const accountsBalanceTypeSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/accounts/balance-type.json',
  title: 'balanceType of the Berlin Group enumeration (reference-facts > Enumerations)',
  enum: [
    'closingBooked',
    'expected',
    'authorised',
    'openingBooked',
    'interimAvailable',
    'interimBooked',
    'forwardAvailable',
    'nonInvoiced',
  ],
} as const;
