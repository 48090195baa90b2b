export const accountsBalanceCompleteSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/accounts/balance-complete.json',
  title:
    'Balance carrying every field the specification lists for it: balanceType, balanceAmount (currency, amount), referenceDate, lastChangeDateTime and clearingNumber (presence only: the types are judged by balance.json)',
  type: 'object',
  required: ['balanceType', 'balanceAmount', 'referenceDate', 'lastChangeDateTime', 'clearingNumber'],
  properties: { balanceAmount: { type: 'object', required: ['currency', 'amount'] } },
} as const;
