import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { readSigning, type SigningIdentity } from '../http/signing.js';
import { readProxy, readTls, type ProxySettings, type TlsMaterial } from '../http/tls.js';
import { ConfigError } from './errors.js';
import { loadProfile, profileLabel, type Profile } from './profile.js';
import {
  agentValuesOf,
  callbackListen,
  checkPsuAgent,
  readScopeTokens,
  readSettings,
  type Settings,
} from './settings.js';
import { internal } from './user-settings.mjs';

/** The server under judgement, with everything the suite needs to talk to it. */
export interface Target {
  baseUrl: string;
  authUrl: string;
  /** True when the suite started the reference sandbox itself. */
  embedded: boolean;
  /** The profile's one name in every message and report (profileLabel: `profiles/bank.json`, or `reference`). */
  profileName: string;
  profile: Profile;
  clientId: string;
  clientSecret: string;
  /** A second TPP application (client credentials), for the ownership checks; absent when not configured. */
  secondClient?: { clientId: string; clientSecret: string };
  accessToken: string;
  /**
   * Tokens of single scopes (ACCESS_TOKEN_<API SCOPE>_<CONTEXT>), by full scope, e.g.
   * "accountinformation corporate": sent for that scope instead of ACCESS_TOKEN or client credentials.
   */
  scopeTokens?: Record<string, string>;
  redirectUri: string;
  bicFi: string;
  psuId: string;
  psuCorporateId: string;
  psuIpAddress: string;
  appLinkBase: string;
  timeouts: { requestMs: number; scaMs: number };
  reportsDir: string;
  /** A private CA and the mutual TLS client certificate, for every call (TARGET_CA_FILE, TLS_CLIENT_*). */
  tls?: TlsMaterial;
  /** HTTPS_PROXY, HTTP_PROXY, NO_PROXY. */
  proxy?: ProxySettings;
  /** The QSealC identity for application-level signing (TPP_SIGNING_KEY_FILE, TPP_SIGNING_CERT_FILE). */
  signing?: SigningIdentity;
  /** Sign every API call: the profile claims `signing` and the bank mandates it (signatures.mandated). */
  signAll: boolean;
  /** A test PKI folder in the sandbox's layout (sandbox/tls/pki.ts), for the signing door tests' other certificates. */
  testPkiDir?: string;
  /** The FX quote international-tp payments carry as FX-Quote-Id (FX_QUOTE_ID); absent: international-tp is not claimed. */
  fxQuoteId?: string;
  /** The OAuth2 token endpoint: TARGET_AUTH_URL and the profile's oauth.tokenPath (default connect/token). */
  tokenUrl: string;
  /** The OAuth2 authorisation endpoint: TARGET_AUTH_URL and oauth.authorizePath (default connect/authorize). */
  authorizeUrl: string;
  /** Headers the bank requires on every call (profile requiredHeaders): fixed values read from .env, or generated per request. */
  requiredHeaders: { name: string; value?: string; generated?: 'date' | 'uuid' }[];
  /** The browser PSU agent's Chromium (CHROMIUM_PATH, its default Debian's: harness/config/chromium.ts). */
  chromiumPath: string;
  /** What the browser PSU agent types, by the .env key its steps name (`from`); a key unset is absent. */
  agentValues: Record<string, string>;
  /** Where the manual PSU agent listens for the PSU's return (PSU_CALLBACK_LISTEN, else a loopback REDIRECT_URI). */
  psuCallback?: { host: string; port: number };
}

/**
 * The settings the embedded reference sandbox is given over the user's (embedded-sandbox.ts):
 * the bank it serves; the others are the schema's defaults, and credentials are fresh every run.
 */
export const EMBEDDED_SETTINGS = { BICFI: 'SBXBSESS' };
/** The settings the embedded run takes at their schema's default, whatever the user's .env says for a bank of theirs. */
export const EMBEDDED_AT_DEFAULT = ['REDIRECT_URI', 'APP_LINK_BASE', 'PSU_IP_ADDRESS'] as const;

/** Resolves the target from settings and profile. Throws ConfigError naming the key or field. */
export function resolveTarget(env?: NodeJS.ProcessEnv): Target {
  return targetOf(readSettings(env), internal('embeddedSandbox', env) === '1');
}

/** The target of the settings (their form checked: readSettings), the suite's embedded sandbox or not. */
export function targetOf(s: Settings, embedded: boolean): Target {
  if (!s.TARGET_BASE_URL) {
    throw new ConfigError(
      'TARGET_BASE_URL: not set and the embedded sandbox was not prepared (run the suite through playwright.config.ts, which starts it: embedded-sandbox.ts).',
    );
  }
  const profile = loadProfile(s.TARGET_PROFILE);
  const profileName = profileLabel(s.TARGET_PROFILE);
  checkPsuAgent(profile, s);
  const trim = (u: string) => u.replace(/\/+$/, '');
  const signing = readSigning(s);
  const claimsSigning = profile.features.includes('signing');
  if (claimsSigning && !signing) {
    throw new ConfigError(
      `TPP_SIGNING_KEY_FILE and TPP_SIGNING_CERT_FILE: required when the profile claims the feature "signing" (profile ${profileName}).`,
    );
  }
  return {
    baseUrl: trim(s.TARGET_BASE_URL),
    authUrl: trim(s.TARGET_AUTH_URL || s.TARGET_BASE_URL),
    embedded,
    profileName,
    profile,
    clientId: s.CLIENT_ID,
    clientSecret: s.CLIENT_SECRET,
    ...(s.SECOND_CLIENT_ID && s.SECOND_CLIENT_SECRET
      ? { secondClient: { clientId: s.SECOND_CLIENT_ID, clientSecret: s.SECOND_CLIENT_SECRET } }
      : {}),
    accessToken: s.ACCESS_TOKEN,
    // The embedded sandbox's tokens are its own: a real target's scope tokens in .env are not for it.
    scopeTokens: embedded ? {} : readScopeTokens(s),
    redirectUri: s.REDIRECT_URI,
    bicFi: s.BICFI,
    psuId: s.PSU_ID,
    psuCorporateId: s.PSU_CORPORATE_ID,
    psuIpAddress: s.PSU_IP_ADDRESS,
    appLinkBase: trim(s.APP_LINK_BASE),
    timeouts: {
      requestMs: Number(s.REQUEST_TIMEOUT_MS || profile.timeouts.requestMs),
      scaMs: Number(s.SCA_TIMEOUT_MS || profile.timeouts.scaMs),
    },
    // Relative to the working folder (the user's), like .env and a profile's path.
    reportsDir: resolve(process.cwd(), s.REPORTS_DIR),
    tls: readTls(s),
    proxy: readProxy(s),
    signing,
    signAll: claimsSigning && profile.signatures.mandated,
    testPkiDir: s.TPP_TEST_PKI_DIR || undefined,
    ...(s.FX_QUOTE_ID ? { fxQuoteId: s.FX_QUOTE_ID } : {}),
    tokenUrl: `${trim(s.TARGET_AUTH_URL || s.TARGET_BASE_URL)}/${profile.oauth.tokenPath}`,
    authorizeUrl: `${trim(s.TARGET_AUTH_URL || s.TARGET_BASE_URL)}/${profile.oauth.authorizePath}`,
    requiredHeaders: requiredHeadersOf(profile, s, profileName),
    chromiumPath: s.CHROMIUM_PATH,
    agentValues: agentValuesOf(profile, s),
    ...(callbackListen(s) ? { psuCallback: callbackListen(s) } : {}),
  };
}

/** The values of the headers the bank requires on every call, for one request (a generated Date is now's). */
export function requiredHeaderValues(t: Pick<Target, 'requiredHeaders'>): Record<string, string> {
  return Object.fromEntries(
    (t.requiredHeaders ?? []).map((h) => [
      h.name,
      h.generated === 'date' ? new Date().toUTCString() : h.generated === 'uuid' ? randomUUID() : h.value!,
    ]),
  );
}

/** The profile's requiredHeaders with their values: a `fromEnv` key must be set (environment or .env). */
function requiredHeadersOf(
  profile: Profile,
  s: Pick<Settings, 'named'>,
  profileName: string,
): Target['requiredHeaders'] {
  const list = profile.requiredHeaders;
  if (!list.length) return [];
  const all = s.named;
  return list.map((h) => {
    if (h.generated) return { name: h.name, generated: h.generated };
    const value = (all[h.fromEnv!] ?? '').trim();
    if (!value)
      throw new ConfigError(
        `${h.fromEnv}: not set, and the profile ${profileName} sends its value as header ${h.name} on every call (requiredHeaders).`,
      );
    return { name: h.name, value };
  });
}

/** The secrets of a target, for redaction and for the self-test that greps reports for them. */
export function secretsOf(t: Target): string[] {
  return [
    t.clientSecret,
    t.secondClient?.clientSecret ?? '',
    t.accessToken,
    ...Object.values(t.scopeTokens ?? {}),
    t.psuId,
    t.psuCorporateId,
    t.tls?.passphrase ?? '',
    ...Object.values(t.agentValues ?? {}),
  ].filter((v) => v && v.length >= 4);
}
