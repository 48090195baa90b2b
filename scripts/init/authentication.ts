// init, step 2 (probing): does the bank take authentication at all? A bank without an
// authorisation server (or a TPP that gave no credentials) whose routes answer a call without
// Authorization as they answer with one takes none: the draft says authentication "none" (no
// token fetched or sent, the checks of tokens not claimed) instead of a placeholder token.
import { AREAS, ownCodesOf, probeWithoutToken, routeAnswers, type AreasFound } from './areas.js';
import type { Answer, Bank } from './bank.js';

/** What the probe found of the bank's authentication. */
export interface AuthenticationFound {
  /** "none": the bank answered without Authorization; "bearer": it refused, or a token was in use. */
  mode: 'bearer' | 'none';
  /** The call and its answer that showed it, or why it was not asked. */
  seen: string;
}

/** A refusal of the authentication layer: 401, or a code naming a token, a client or a certificate. */
const AUTH_REFUSAL = /TOKEN|UNAUTHORI[SZ]ED|CERTIFICATE|CLIENT|invalid_(token|client|request)/i;

/** The bank's route answered a call without Authorization, not its authentication layer. */
export function answeredWithoutToken(a: Answer, own: readonly string[] = []): boolean {
  if (a.status === 401 || (a.code && AUTH_REFUSAL.test(a.code))) return false;
  return routeAnswers(a, own);
}

/**
 * Asked only where the TPP gave no credentials (--auth=none) or the bank has no token endpoint
 * (published or answering): a bank that issues tokens takes authentication, and where it ignores
 * them it is judged on it (headers.authorization.required fails there), never drafted "none".
 */
export async function findAuthentication(
  bank: Bank,
  found: AreasFound,
  tokenFound: boolean,
): Promise<AuthenticationFound> {
  if (bank.answers.auth !== 'none' && tokenFound)
    return { mode: 'bearer', seen: 'the bank has a token endpoint: its tokens are sent' };
  for (const area of AREAS) {
    const paths = found.areas[area].paths;
    const path = paths && Object.values(paths)[0];
    if (!path) continue;
    const res = await probeWithoutToken(bank, area, path);
    const seen = `${area}: the call at /${path} without Authorization answered ${res.error ?? `${res.status}${res.code ? ` ${res.code}` : ''}`}`;
    const ok =
      area === 'directory' ? res.status >= 200 && res.status < 300 : answeredWithoutToken(res, ownCodesOf(area));
    return { mode: ok ? 'none' : 'bearer', seen };
  }
  return { mode: 'bearer', seen: 'no area answered, so no call without Authorization could show it' };
}
