export const directoryAspspDetailCompleteSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/directory/aspsp-detail-complete.json',
  title: 'Bank detail carrying every field the specification lists',
  allOf: [{ $ref: 'aspsp-detail.json' }],
  required: [
    'bicFi',
    'name',
    'city',
    'country',
    'postalCode',
    'streetAddress',
    'companyNumber',
    'phone',
    'globalPaymentProducts',
    'supportedAuthorizationMethods',
    'affiliatedAspsps',
  ],
} as const;
