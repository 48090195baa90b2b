/*
 * The profile's option for a bank that takes no authentication: profile.schema.ts holds it at the
 * top level (its default stated here), harness/config/profile.ts turns it into the feature
 * authentication (OPTION_FEATURES).
 */

export const authentication = {
  description:
    "How the bank authenticates the TPP on its API calls: 'bearer' (every call carries Authorization: Bearer <token>, Authentication 1: an application token from CLIENT_ID and CLIENT_SECRET, or ACCESS_TOKEN; the reference sandbox's) or 'none' (a bank that takes no authentication: the suite fetches no token and sends no Authorization header, and the checks of tokens (Authorization, the token endpoint, a token's scope, another TPP's resources) read 'not claimed'). 'bearer' brings the feature authentication (harness/config/profile.ts, OPTION_FEATURES). Default 'bearer'.",
  enum: ['bearer', 'none'],
  default: 'bearer',
} as const;
