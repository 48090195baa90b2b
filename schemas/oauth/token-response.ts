export const oauthTokenResponseSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/oauth/token-response.json',
  title: 'Access token response: access_token, expires_in (integer seconds), token_type Bearer, scope',
  type: 'object',
  // access_token: what the token endpoint exists to return; token_type: the API takes "Authorization:
  // Bearer <ACCESS_TOKEN>" only (Authentication 1), and RFC 6749 5.1 makes both REQUIRED. expires_in
  // (RECOMMENDED) and scope (optional when it is the one asked) are judged for their type when present,
  // and for their presence by oauth/token-response-complete (a SHOULD). token_type is Bearer in any
  // case: RFC 6749 5.1 makes the value case-insensitive (servers answer Bearer or bearer).
  required: ['access_token', 'token_type'],
  properties: {
    access_token: { type: 'string', minLength: 1 },
    expires_in: { type: 'integer', minimum: 1 },
    token_type: { type: 'string', pattern: '^[Bb][Ee][Aa][Rr][Ee][Rr]$' },
    scope: { type: 'string', minLength: 1 },
  },
} as const;
