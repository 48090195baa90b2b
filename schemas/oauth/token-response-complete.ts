export const oauthTokenResponseCompleteSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/oauth/token-response-complete.json',
  title:
    'Access token response carrying every listed field: access_token, expires_in, token_type, scope (presence only: the types are judged by token-response.json)',
  type: 'object',
  required: ['access_token', 'expires_in', 'token_type', 'scope'],
} as const;
