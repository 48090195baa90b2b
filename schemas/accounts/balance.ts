export const accountsBalanceSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/accounts/balance.json',
  title: 'Balance: balanceType, balanceAmount (currency, amount as string), referenceDate, lastChangeDateTime',
  type: 'object',
  // Listed fields with no stated rule: judged for their type when present; presence is
  // accounts/balance-complete (a SHOULD).
  properties: {
    balanceType: { type: 'string', minLength: 1 },
    balanceAmount: { $ref: 'amount.json' },
    referenceDate: { type: 'string', format: 'date' },
    lastChangeDateTime: { type: 'string', format: 'date-time' },
    clearingNumber: { type: 'string' },
  },
} as const;
