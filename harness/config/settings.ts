import type { Profile } from '../../profiles/profile.schema.js';
import { isIpv4 } from '../../spec/header-forms.js';
import { ConfigError } from './errors.js';
import { findChromium } from './chromium.js';
import {
  envFileOf,
  loadSettings,
  SETTINGS_SCHEMA,
  switchValue,
  whereFrom,
  type SettingKey,
  type Settings,
} from './user-settings.mjs';

/**
 * Every setting of the schema (settings.schema.json: its kind, default, description and readers),
 * trimmed, its default applied; empty when unset without one. Read once per process by
 * loadSettings (harness/config/user-settings.mjs), the environment over .env.
 */
export type { Settings };

export const SETTING_KEYS = Object.keys(SETTINGS_SCHEMA.properties) as SettingKey[];

export const BIC_PATTERN = /^[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$/;

/** What is wrong with a value of a kind the schema names (undefined: nothing); kinds without a form are absent. */
const KIND_CHECKS: Record<string, (value: string) => string | undefined> = {
  url: (value) => {
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      return `"${value}" is not an absolute URL (expected e.g. https://api.bank.example).`;
    }
    return /^https?:$/.test(parsed.protocol) ? undefined : `"${value}" must use http or https.`;
  },
  bic: (value) => (BIC_PATTERN.test(value) ? undefined : `"${value}" is not a BIC (pattern ${BIC_PATTERN.source}).`),
  ipv4: (value) => (isIpv4(value) ? undefined : `"${value}" is not an IPv4 address.`),
  ms: (value) =>
    /^\d+$/.test(value) && Number(value) >= 100 && Number(value) <= 600_000
      ? undefined
      : `"${value}" must be a whole number of milliseconds from 100 to 600000.`,
  count: (value) =>
    /^\d+$/.test(value) && Number(value) >= 2 && Number(value) <= 1000
      ? undefined
      : `"${value}" must be a whole number from 2 to 1000.`,
  switch: (value) => (switchValue(value) === undefined ? `"${value}" is neither on nor off (default off).` : undefined),
};

/**
 * Reads the settings (the environment, else `.env`; loadSettings applies the schema's defaults)
 * and checks the form of every value that is set, by its kind in the schema (the sandbox's own
 * settings are the sandbox command's to check).
 */
export function readSettings(env?: NodeJS.ProcessEnv, envFile = envFileOf()): Settings {
  const settings = loadSettings(env, envFile);
  const where = settings.envFile ? whereFrom(settings.envFile) : ' (environment)';
  for (const key of SETTING_KEYS) {
    const spec = SETTINGS_SCHEMA.properties[key];
    const problem = settings[key] && spec.group !== 'sandbox' ? KIND_CHECKS[spec.kind]?.(settings[key]) : undefined;
    if (problem) throw new ConfigError(`${key}${where}: ${problem}`);
  }
  if (settings.TARGET_BASE_URL) {
    // Mutual TLS only (RFC 8705): the client id alone, its certificate authenticating it at the token endpoint.
    const mtlsOnly = !!settings.TLS_CLIENT_CERT_FILE && !!settings.CLIENT_ID;
    if (!settings.ACCESS_TOKEN && !(settings.CLIENT_ID && settings.CLIENT_SECRET) && !mtlsOnly) {
      throw new ConfigError(
        `CLIENT_ID and CLIENT_SECRET${where}: required when TARGET_BASE_URL is set and no ACCESS_TOKEN is given (or CLIENT_ID with TLS_CLIENT_CERT_FILE: mutual TLS only).`,
      );
    }
    if (!settings.SECOND_CLIENT_ID !== !settings.SECOND_CLIENT_SECRET) {
      throw new ConfigError(
        `SECOND_CLIENT_ID and SECOND_CLIENT_SECRET${where}: set both (a second TPP application) or neither.`,
      );
    }
    if (!settings.BICFI)
      throw new ConfigError(`BICFI${where}: required when TARGET_BASE_URL is set (the X-BicFi of the addressed bank).`);
  }
  return settings;
}

/** The API scopes a token of its own may be given for (Authentication 2; aspspinformation: the directory's). */
export const TOKEN_API_SCOPES = ['accountinformation', 'paymentinitiation', 'aspspinformation'] as const;
/** The PSU context scopes (Authentication 2). */
export const TOKEN_CONTEXTS = ['private', 'corporate'] as const;

/** The .env key of a full scope's own token: "accountinformation private" is ACCESS_TOKEN_ACCOUNTINFORMATION_PRIVATE. */
export const scopeTokenKey = (scope: string): string =>
  `ACCESS_TOKEN_${scope.trim().toUpperCase().replace(/\s+/g, '_')}`;

/**
 * The tokens of single scopes (ACCESS_TOKEN_<API SCOPE>_<CONTEXT>, environment or `.env`, the
 * environment winning), by full scope ("paymentinitiation corporate"). Beside ACCESS_TOKEN (or
 * client credentials), each is sent for its scope only. A key of that prefix naming no known
 * scope is a ConfigError naming the key; an empty value is no token.
 */
export function readScopeTokens(settings: Pick<Settings, 'named'> = loadSettings()): Record<string, string> {
  const all = settings.named;
  const known = new Map<string, string>(
    TOKEN_API_SCOPES.flatMap((a) =>
      TOKEN_CONTEXTS.map((c): [string, string] => [scopeTokenKey(`${a} ${c}`), `${a} ${c}`]),
    ),
  );
  const keys = Object.keys(all).filter((k) => k.startsWith('ACCESS_TOKEN_'));
  const tokens: Record<string, string> = {};
  for (const key of keys.sort()) {
    const scope = known.get(key);
    if (!scope)
      throw new ConfigError(
        `${key}: names no scope. A token of one scope is given as ACCESS_TOKEN_<API SCOPE>_<CONTEXT>: ${[...known.keys()].join(', ')}.`,
      );
    const value = all[key].trim();
    if (value) tokens[scope] = value;
  }
  return tokens;
}

/**
 * The values the browser agent types (the .env keys its steps name: `from`), from the environment
 * or `.env` (the environment wins); a key unset is absent.
 */
export function agentValuesOf(
  profile: Pick<Profile, 'sca'>,
  settings: Pick<Settings, 'named'>,
): Record<string, string> {
  const browser = profile.sca?.browser;
  const keys = [...(browser?.approve ?? []), ...(browser?.deny ?? [])].flatMap((step) =>
    'fill' in step ? [step.from] : [],
  );
  return Object.fromEntries(keys.flatMap((k) => (settings.named[k] ? [[k, settings.named[k]]] : [])));
}

/** Where the manual agent listens for the PSU's return: PSU_CALLBACK_LISTEN, else a loopback http REDIRECT_URI's host and port. */
export function callbackListen(
  s: Pick<Settings, 'PSU_CALLBACK_LISTEN' | 'REDIRECT_URI'>,
): { host: string; port: number } | undefined {
  const m = /^([\w.-]+|\[[0-9a-f:]+\]):(\d{1,5})$/i.exec(s.PSU_CALLBACK_LISTEN);
  if (m) return { host: m[1].replace(/^\[|\]$/g, ''), port: Number(m[2]) };
  if (s.PSU_CALLBACK_LISTEN || !s.REDIRECT_URI) return undefined;
  const u = new URL(s.REDIRECT_URI);
  if (u.protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname) || !u.port) return undefined;
  return { host: u.hostname.replace(/^\[|\]$/g, ''), port: Number(u.port) };
}

/**
 * Checks the settings of the profile's PSU agent (sca.psuAgent) before any test: the browser
 * agent's Chromium and every .env key its steps type; the manual agent's listener for the PSU's
 * return. A problem is a ConfigError naming the key or the profile field.
 */
export function checkPsuAgent(profile: Pick<Profile, 'sca'>, settings: Settings): void {
  const agent = profile.sca?.psuAgent;
  if (agent === 'browser') {
    if (!profile.sca?.browser)
      throw new ConfigError(
        'sca.browser: required when sca.psuAgent is "browser" (the steps that approve on the login page).',
      );
    // A ConfigError naming CHROMIUM_PATH when there is no browser at all (config/chromium.ts).
    findChromium(settings.CHROMIUM_PATH);
    for (const kind of ['approve', 'deny'] as const) {
      // deny is optional: a script may only approve.
      profile.sca.browser[kind]?.forEach((step, i) => {
        if ('fill' in step && !settings.named[step.from])
          throw new ConfigError(
            `sca.browser.${kind}[${i}].from: the .env key ${step.from} is not set (the value typed into ${step.fill}).`,
          );
      });
    }
  }
  if (agent === 'manual') {
    if (settings.PSU_CALLBACK_LISTEN && !callbackListen(settings))
      throw new ConfigError(
        `PSU_CALLBACK_LISTEN: "${settings.PSU_CALLBACK_LISTEN}" is not host:port (e.g. 127.0.0.1:8765).`,
      );
    if (!callbackListen(settings))
      throw new ConfigError(
        'PSU_CALLBACK_LISTEN: required when sca.psuAgent is "manual" and REDIRECT_URI is not a loopback http URI with a port (the suite listens there for the PSU\'s return with the code).',
      );
  }
}
