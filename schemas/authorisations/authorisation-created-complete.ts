export const authorisationsAuthorisationCreatedCompleteSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/authorisations/authorisation-created-complete.json',
  title:
    'Create-authorisation response (flow guide) carrying its scaStatus beside authorisationId and scaMethods (presence only: the types are judged by authorisation-created.json; _links is listed for the redirect flow only)',
  type: 'object',
  required: ['authorisationId', 'scaStatus', 'scaMethods'],
} as const;
