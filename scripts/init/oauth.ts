// init, step 2 (probing): where the bank serves OAuth2. Its published metadata first (RFC 8414
// authorization server metadata, OpenID Connect discovery), else the usual token and authorise
// paths that answer; the token endpoint is tried only with credentials it could take.
import type { Bank } from './bank.js';

/** Where the suite finds the bank's OAuth2 endpoints: TARGET_AUTH_URL and the profile's oauth paths. */
export interface OAuthFound {
  authUrl: string;
  tokenPath: string;
  authorizePath: string;
  tokenUrl: string;
  authorizeUrl: string;
  /** How they were found, in words. */
  from: string;
  /** Something the user should know (an endpoint the profile cannot express, credentials refused). */
  notes: string[];
  /** The metadata or a token endpoint answered: the bank has an authorisation server. */
  found: boolean;
  /** A token endpoint was published or answered: the bank issues tokens (authentication.ts). */
  tokenFound?: boolean;
}

const TOKEN_PATHS = ['connect/token', 'oauth2/token', 'oauth/token', 'token', 'auth/token', 'oauth2/v1/token'];
const AUTHORIZE_PATHS = ['connect/authorize', 'oauth2/authorize', 'oauth/authorize', 'authorize', 'auth/authorize'];

/** The metadata documents to look for under one URL (RFC 8414 section 3 inserts the well-known part before the path). */
export function metadataUrls(base: string): string[] {
  const u = new URL(base);
  const path = u.pathname.replace(/\/+$/, '');
  return [
    `${u.origin}/.well-known/oauth-authorization-server${path}`,
    `${u.origin}${path}/.well-known/oauth-authorization-server`,
    `${u.origin}${path}/.well-known/openid-configuration`,
    `${u.origin}/.well-known/oauth-authorization-server`,
    `${u.origin}/.well-known/openid-configuration`,
  ];
}

/** TARGET_AUTH_URL and the two paths under it, from two absolute endpoint URLs (the issuer's prefix preferred). */
export function splitEndpoints(tokenUrl: string, authorizeUrl: string, issuer?: string) {
  const t = new URL(tokenUrl);
  const a = new URL(authorizeUrl);
  const notes: string[] = [];
  const under = (base: string, u: URL) => u.href.startsWith(`${base}/`) && u.href.length > base.length + 2;
  let authUrl: string;
  // The issuer when it has a path of its own and holds both; else their common folder.
  const iss = issuer?.replace(/\/+$/, '');
  if (iss && new URL(iss).pathname.length > 1 && under(iss, t) && under(iss, a)) authUrl = iss;
  else if (t.origin === a.origin) {
    const ts = t.pathname.split('/').slice(1, -1);
    const as = a.pathname.split('/').slice(1, -1);
    let n = 0;
    while (n < ts.length && n < as.length && ts[n] === as[n]) n++;
    authUrl = [t.origin, ...ts.slice(0, n)].join('/');
  } else {
    authUrl = [t.origin, ...t.pathname.split('/').slice(1, -1)].join('/');
    notes.push(
      `the authorise endpoint ${a.href} is on another host than the token endpoint: oauth.authorizePath cannot name it (the redirect flow follows the bank's scaOAuth links; the authorise checks use ${authUrl}/<oauth.authorizePath>)`,
    );
  }
  const rest = (u: URL) => u.href.slice(authUrl.length + 1).split('?')[0];
  return {
    authUrl,
    tokenPath: rest(t),
    authorizePath: t.origin === a.origin || under(authUrl, a) ? rest(a) : 'connect/authorize',
    notes,
  };
}

/** The first metadata document (RFC 8414 or OpenID) under the auth URL or the base URL that names a token endpoint. */
async function fromMetadata(bank: Bank, bases: string[]): Promise<OAuthFound | undefined> {
  const tried = new Set<string>();
  for (const base of bases)
    for (const at of metadataUrls(base)) {
      if (tried.has(at)) continue;
      tried.add(at);
      const res = await bank.call('GET', at, { headers: { Accept: 'application/json' } });
      const doc = res.json as
        { token_endpoint?: unknown; authorization_endpoint?: unknown; issuer?: unknown } | undefined;
      if (res.status !== 200 || typeof doc?.token_endpoint !== 'string') continue;
      const tokenUrl = new URL(doc.token_endpoint, at).href;
      const authorizeUrl =
        typeof doc.authorization_endpoint === 'string'
          ? new URL(doc.authorization_endpoint, at).href
          : tokenUrl.replace(/token$/, 'authorize');
      const split = splitEndpoints(tokenUrl, authorizeUrl, typeof doc.issuer === 'string' ? doc.issuer : undefined);
      const kind = at.includes('openid-configuration') ? 'OpenID Connect discovery' : 'RFC 8414 metadata';
      return { ...split, tokenUrl, authorizeUrl, from: `its ${kind} at ${at}`, found: true, tokenFound: true };
    }
  return undefined;
}

/** An answer from a token endpoint: a token, or an OAuth2 error (RFC 6749 section 5.2). */
const isTokenAnswer = (status: number, json: unknown) => {
  const body = json as { access_token?: unknown; error?: unknown } | undefined;
  return (
    (status === 200 && typeof body?.access_token === 'string') ||
    (status >= 400 && status < 500 && typeof body?.error === 'string')
  );
};

/** The usual token paths under the auth URL, each tried with the credentials (never without a client id). */
async function fromTokenPaths(bank: Bank, authBase: string): Promise<{ tokenUrl: string; note?: string } | undefined> {
  const a = bank.answers;
  if (a.auth === 'token' || a.auth === 'none' || !a.clientId || (a.auth === 'client-credentials' && !a.clientSecret))
    return undefined;
  for (const path of TOKEN_PATHS) {
    const tokenUrl = `${authBase}/${path}`;
    const form: Record<string, string> = {
      grant_type: 'client_credentials',
      client_id: a.clientId,
      scope: `aspspinformation ${bank.psuContext}`,
      ...(a.auth === 'client-credentials' ? { client_secret: a.clientSecret } : {}),
    };
    const res = await bank.call('POST', tokenUrl, { form });
    if (!isTokenAnswer(res.status, res.json)) continue;
    return res.status === 200
      ? { tokenUrl }
      : {
          tokenUrl,
          note: `the token endpoint ${tokenUrl} refused the client credentials (${res.status} ${res.code}): check CLIENT_ID and CLIENT_SECRET`,
        };
  }
  return undefined;
}

/** The first usual authorise path under the auth URL that answers (a page, or a refusal other than 404). */
async function authorizePathOf(bank: Bank, authBase: string): Promise<string | undefined> {
  for (const path of AUTHORIZE_PATHS) {
    const res = await bank.call(
      'GET',
      `${authBase}/${path}?response_type=code&client_id=${encodeURIComponent(bank.answers.clientId || 'obg-conformance-init')}`,
    );
    if (res.status && res.status !== 404 && res.status !== 405 && res.status < 500) return path;
  }
  return undefined;
}

/** Where the bank serves OAuth2: metadata, else the paths that answer, else the defaults under the auth URL (said so). */
export async function findOAuth(bank: Bank): Promise<OAuthFound> {
  const a = bank.answers;
  const bases = [...new Set([a.authUrl, a.baseUrl].filter(Boolean))];
  const published = await fromMetadata(bank, bases);
  if (published) return published;
  const notes: string[] = [];
  for (const authBase of bases) {
    const token = await fromTokenPaths(bank, authBase);
    const authorizePath = await authorizePathOf(bank, authBase);
    if (!token && !authorizePath) continue;
    const tokenPath = token ? token.tokenUrl.slice(authBase.length + 1) : 'connect/token';
    const path = authorizePath ?? 'connect/authorize';
    if (token?.note) notes.push(token.note);
    const what = [
      token && `a token endpoint at ${tokenPath}`,
      authorizePath && `an authorise endpoint at ${authorizePath}`,
    ]
      .filter(Boolean)
      .join(' and ');
    return {
      authUrl: authBase,
      tokenPath,
      authorizePath: path,
      tokenUrl: `${authBase}/${tokenPath}`,
      authorizeUrl: `${authBase}/${path}`,
      from: `no metadata published; ${what} answered under ${authBase}`,
      notes,
      found: true,
      tokenFound: !!token,
    };
  }
  const authUrl = a.authUrl || a.baseUrl;
  notes.push(
    a.auth === 'token' || a.auth === 'none'
      ? `with ${a.auth === 'token' ? 'a pre-issued token' : 'no credentials (--auth=none)'} init tries no token endpoint; the redirect flow exchanges its code at TARGET_AUTH_URL/<oauth.tokenPath>: set both when the bank documents them`
      : `no metadata (${metadataUrls(authUrl)[0]}, .well-known/openid-configuration) and none of ${TOKEN_PATHS.join(', ')} answered under ${bases.join(' or ')}: set TARGET_AUTH_URL and oauth.tokenPath, oauth.authorizePath from the bank's documentation`,
  );
  return {
    authUrl,
    tokenPath: 'connect/token',
    authorizePath: 'connect/authorize',
    tokenUrl: `${authUrl}/connect/token`,
    authorizeUrl: `${authUrl}/connect/authorize`,
    from: "nothing published or answering: the specification's {auth_url}/connect/token and /connect/authorize",
    notes,
    found: false,
  };
}
