export const commonIbanSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/common/iban.json',
  title: 'IBAN (form only; the mod-97 check is made in code)',
  type: 'string',
  pattern: '^[A-Z]{2}[0-9]{2}[a-zA-Z0-9]{1,30}$',
} as const;
