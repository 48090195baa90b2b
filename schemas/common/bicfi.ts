export const commonBicfiSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/common/bicfi.json',
  title: 'BICFI: six letters, one of A-Z or 2-9, one of A-N, P-Z or 0-9, then an optional three',
  type: 'string',
  pattern: '^[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$',
} as const;
