import type { ApiClient } from '../http/client.js';
import type { ApiResponse } from '../http/response.js';

/**
 * The bank's own answer to an authorise request (endpoint section F), read over HTTP without
 * following a redirect and without a PSU: what a refusal of the request is judged on, whatever
 * agent the profile names for the PSU (form, browser or a person).
 *
 * - `refused`: the bank said no at once: a 4xx error page, or a redirect that carries `error`
 *   (RFC 6749 4.1.2.1) to anywhere but a URI it was told not to trust;
 * - `issued`: the bank sent the browser to the untrusted URI, or issued a code without the PSU;
 * - `shown`: the bank shows its page (a 2xx, or a redirect inside the bank that carries no
 *   error: its login or consent page), so only the PSU's decision on that page can tell.
 */
export interface AuthoriseAnswer {
  kind: 'refused' | 'issued' | 'shown';
  res: ApiResponse;
  /** What the bank did, for a message ("answered 400", "redirected (302) to … with error=…"). */
  how: string;
  /** The code a redirect carried (a secret). */
  code?: string;
}

/** The query parameters of a Location (empty when there is none or it does not parse). */
function paramsOf(location: URL | undefined): URLSearchParams {
  return location?.searchParams ?? new URLSearchParams();
}

/**
 * Opens `authorizeUrl` as a browser's first request would (no Authorization, `Accept:
 * text/html`), reads the answer without following it, and says what it was. `untrusted` is a
 * redirect URI the bank must not send the PSU to (a URI outside the whitelist).
 */
export async function authoriseAnswer(
  browser: ApiClient,
  authorizeUrl: string,
  untrusted?: string,
): Promise<AuthoriseAnswer> {
  const res = await browser.get(authorizeUrl, { noAuth: true, allowRedirect: true, headers: { Accept: 'text/html' } });
  return classify(res, authorizeUrl, untrusted);
}

/** What an answer to the authorise request `authorizeUrl` was (see AuthoriseAnswer). */
export function classify(res: ApiResponse, authorizeUrl: string, untrusted?: string): AuthoriseAnswer {
  if (res.status >= 400) return { kind: 'refused', res, how: `answered ${res.status}` };
  const raw = res.status >= 300 && res.status < 400 ? res.header('location') : undefined;
  if (res.status >= 300 && res.status < 400 && !raw)
    return { kind: 'refused', res, how: `answered ${res.status} without a Location` };
  if (raw === undefined) return { kind: 'shown', res, how: `answered ${res.status} with its page` };
  let location: URL | undefined;
  try {
    location = new URL(raw, authorizeUrl);
  } catch {
    return { kind: 'refused', res, how: `answered ${res.status} to a Location that is no URL` };
  }
  const to = `${location.origin}${location.pathname}`;
  if (untrusted && location.toString().startsWith(untrusted))
    return { kind: 'issued', res, how: `redirected (${res.status}) to the untrusted URI ${to}` };
  const q = paramsOf(location);
  if (q.has('code'))
    return { kind: 'issued', res, how: `redirected (${res.status}) to ${to} with a code`, code: q.get('code')! };
  if (q.has('error'))
    return { kind: 'refused', res, how: `redirected (${res.status}) to ${to} with error=${q.get('error')}` };
  if (location.origin !== new URL(authorizeUrl).origin)
    return { kind: 'shown', res, how: `redirected (${res.status}) to ${to}, another origin` };
  return { kind: 'shown', res, how: `redirected (${res.status}) inside the bank to ${to}` };
}
