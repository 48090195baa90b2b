export const oauthTokenResponseSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/oauth/token-response.json',
  title: 'Access token response: access_token, expires_in (integer seconds), token_type Bearer, scope',
  type: 'object',
  required: ['access_token', 'expires_in', 'token_type', 'scope'],
  properties: {
    access_token: { type: 'string', minLength: 1 },
    expires_in: { type: 'integer', minimum: 1 },
    token_type: { const: 'Bearer' },
    scope: { type: 'string', minLength: 1 },
  },
} as const;
