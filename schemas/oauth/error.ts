export const oauthErrorSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/oauth/error.json',
  title: 'OAuth 2.0 error response (RFC 6749 5.2): error, error_description',
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      enum: [
        'invalid_request',
        'invalid_client',
        'invalid_grant',
        'unauthorized_client',
        'unsupported_grant_type',
        'invalid_scope',
      ],
    },
    error_description: { type: 'string' },
  },
} as const;
