export const accountsBalanceCompleteSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/accounts/balance-complete.json',
  title: 'Balance carrying balanceType and balanceAmount (presence only: the types are judged by balance.json)',
  type: 'object',
  required: ['balanceType', 'balanceAmount'],
} as const;
