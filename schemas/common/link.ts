export const commonLinkSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/common/link.json',
  title: 'A link: an object with href',
  type: 'object',
  required: ['href'],
  properties: { href: { type: 'string', minLength: 1 } },
} as const;
