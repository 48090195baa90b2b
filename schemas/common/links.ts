export const commonLinksSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/common/links.json',
  title: '_links: named links, each an object with href; further names allowed',
  type: 'object',
  additionalProperties: { $ref: 'link.json' },
} as const;
