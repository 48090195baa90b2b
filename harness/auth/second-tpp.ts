import type { ApiClient } from '../http/client.js';
import { TokenCache } from './tokens.js';

/** Why the ownership checks are skipped when the settings name no second application. */
export const NO_SECOND_TPP =
  'not configured: SECOND_CLIENT_ID and SECOND_CLIENT_SECRET name no second TPP application of the target';

/**
 * `api` (same defaults: scope, X-BicFi, headers) calling as the second TPP application of the
 * settings (SECOND_CLIENT_ID, SECOND_CLIENT_SECRET), with its own client-credentials tokens; or
 * undefined when none is configured. For the checks that one TPP cannot reach another's resources.
 */
export function asSecondTpp(api: ApiClient): ApiClient | undefined {
  const other = api.target.secondClient;
  if (!other) return undefined;
  const tokens = new TokenCache({
    ...api.target,
    clientId: other.clientId,
    clientSecret: other.clientSecret,
    accessToken: '',
    scopeTokens: {},
  });
  return api.withTokens((record) => (scope) => tokens.get(scope, record));
}
