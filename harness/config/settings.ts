import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'dotenv';
import { readFileSync } from 'node:fs';
import type { Profile } from '../../profiles/profile.schema.js';
import { ConfigError } from './errors.js';
import { findChromium, SYSTEM_CHROMIUM } from './chromium.js';
import { allureHtmlOf } from '../../scripts/allure-html.mjs';

/** Every setting the suite reads from the environment or `.env` (see .env.example). */
export interface Settings {
  TARGET_BASE_URL: string;
  TARGET_AUTH_URL: string;
  TARGET_PROFILE: string;
  CLIENT_ID: string;
  CLIENT_SECRET: string;
  SECOND_CLIENT_ID: string;
  SECOND_CLIENT_SECRET: string;
  ACCESS_TOKEN: string;
  REDIRECT_URI: string;
  BICFI: string;
  PSU_ID: string;
  PSU_CORPORATE_ID: string;
  PSU_IP_ADDRESS: string;
  APP_LINK_BASE: string;
  REQUEST_TIMEOUT_MS: string;
  SCA_TIMEOUT_MS: string;
  REPORTS_DIR: string;
  TARGET_CA_FILE: string;
  TLS_CLIENT_CERT_FILE: string;
  TLS_CLIENT_KEY_FILE: string;
  TLS_CLIENT_KEY_PASSPHRASE: string;
  HTTPS_PROXY: string;
  HTTP_PROXY: string;
  NO_PROXY: string;
  TPP_SIGNING_KEY_FILE: string;
  TPP_SIGNING_CERT_FILE: string;
  TPP_SIGNING_KEY_PASSPHRASE: string;
  TPP_TEST_PKI_DIR: string;
  /** The browser agent's Chromium (default /usr/bin/chromium, Debian's package). */
  CHROMIUM_PATH: string;
  /** The manual agent's listener for the PSU's return to the redirect URI (host:port; default: REDIRECT_URI's when it is a loopback http URI). */
  PSU_CALLBACK_LISTEN: string;
  /** An FX quote of the target for international-tp payments (FX-Quote-Id); without one, international-tp is not claimed. */
  FX_QUOTE_ID: string;
  /** The Allure HTML report after a run: on or off (default off; scripts/allure-html.mjs). */
  ALLURE_HTML: string;
}

export const SETTING_KEYS: (keyof Settings)[] = [
  'TARGET_BASE_URL',
  'TARGET_AUTH_URL',
  'TARGET_PROFILE',
  'CLIENT_ID',
  'CLIENT_SECRET',
  'SECOND_CLIENT_ID',
  'SECOND_CLIENT_SECRET',
  'ACCESS_TOKEN',
  'REDIRECT_URI',
  'BICFI',
  'PSU_ID',
  'PSU_CORPORATE_ID',
  'PSU_IP_ADDRESS',
  'APP_LINK_BASE',
  'REQUEST_TIMEOUT_MS',
  'SCA_TIMEOUT_MS',
  'REPORTS_DIR',
  'TARGET_CA_FILE',
  'TLS_CLIENT_CERT_FILE',
  'TLS_CLIENT_KEY_FILE',
  'TLS_CLIENT_KEY_PASSPHRASE',
  'HTTPS_PROXY',
  'HTTP_PROXY',
  'NO_PROXY',
  'TPP_SIGNING_KEY_FILE',
  'TPP_SIGNING_CERT_FILE',
  'TPP_SIGNING_KEY_PASSPHRASE',
  'TPP_TEST_PKI_DIR',
  'CHROMIUM_PATH',
  'PSU_CALLBACK_LISTEN',
  'FX_QUOTE_ID',
  'ALLURE_HTML',
];

export const BIC_PATTERN = /^[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/**
 * Reads `.env` (the process environment wins over it) and checks the form of every value that
 * is set. Nothing is defaulted here: defaults belong to the target (embedded or real).
 */
export function readSettings(env: NodeJS.ProcessEnv = process.env, envFile = resolve(process.cwd(), '.env')): Settings {
  const fromFile: Record<string, string> = existsSync(envFile) ? parse(readFileSync(envFile)) : {};
  const get = (key: keyof Settings): string => (env[key] ?? fromFile[key] ?? '').trim();
  const settings = Object.fromEntries(SETTING_KEYS.map((k) => [k, get(k)])) as unknown as Settings;
  const where = existsSync(envFile) && Object.keys(fromFile).length ? ` (environment or ${envFile})` : ' (environment)';

  const url = (key: keyof Settings) => {
    const value = settings[key];
    if (!value) return;
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      throw new ConfigError(
        `${key}${where}: "${value}" is not an absolute URL (expected e.g. https://api.bank.example).`,
      );
    }
    if (!/^https?:$/.test(parsed.protocol)) throw new ConfigError(`${key}${where}: "${value}" must use http or https.`);
  };
  url('TARGET_BASE_URL');
  url('TARGET_AUTH_URL');
  url('REDIRECT_URI');
  url('APP_LINK_BASE');
  url('HTTPS_PROXY');
  url('HTTP_PROXY');
  if (settings.BICFI && !BIC_PATTERN.test(settings.BICFI)) {
    throw new ConfigError(`BICFI${where}: "${settings.BICFI}" is not a BIC (pattern ${BIC_PATTERN.source}).`);
  }
  if (settings.PSU_IP_ADDRESS && !IPV4.test(settings.PSU_IP_ADDRESS)) {
    throw new ConfigError(`PSU_IP_ADDRESS${where}: "${settings.PSU_IP_ADDRESS}" is not an IPv4 address.`);
  }
  for (const key of ['REQUEST_TIMEOUT_MS', 'SCA_TIMEOUT_MS'] as const) {
    const value = settings[key];
    if (value && !(/^\d+$/.test(value) && Number(value) >= 100 && Number(value) <= 600_000)) {
      throw new ConfigError(`${key}${where}: "${value}" must be a whole number of milliseconds from 100 to 600000.`);
    }
  }
  // The values the runner reads (scripts/allure-html.mjs), checked here with every other setting.
  if (allureHtmlOf([], { ALLURE_HTML: settings.ALLURE_HTML }).error) {
    throw new ConfigError(`ALLURE_HTML${where}: "${settings.ALLURE_HTML}" is neither on nor off (default off).`);
  }
  if (settings.TARGET_BASE_URL) {
    if (!settings.ACCESS_TOKEN && !(settings.CLIENT_ID && settings.CLIENT_SECRET)) {
      throw new ConfigError(
        `CLIENT_ID and CLIENT_SECRET${where}: required when TARGET_BASE_URL is set and no ACCESS_TOKEN is given.`,
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
export function readScopeTokens(
  env: NodeJS.ProcessEnv = process.env,
  envFile = resolve(process.cwd(), '.env'),
): Record<string, string> {
  const fromFile: Record<string, string> = existsSync(envFile) ? parse(readFileSync(envFile)) : {};
  const known = new Map<string, string>(
    TOKEN_API_SCOPES.flatMap((a) =>
      TOKEN_CONTEXTS.map((c): [string, string] => [scopeTokenKey(`${a} ${c}`), `${a} ${c}`]),
    ),
  );
  const keys = [...new Set([...Object.keys(fromFile), ...Object.keys(env)])].filter((k) =>
    k.startsWith('ACCESS_TOKEN_'),
  );
  const tokens: Record<string, string> = {};
  for (const key of keys.sort()) {
    const scope = known.get(key);
    if (!scope)
      throw new ConfigError(
        `${key}: names no scope. A token of one scope is given as ACCESS_TOKEN_<API SCOPE>_<CONTEXT>: ${[...known.keys()].join(', ')}.`,
      );
    const value = (env[key] ?? fromFile[key] ?? '').trim();
    if (value) tokens[scope] = value;
  }
  return tokens;
}

/** A value the browser agent types, from the environment or `.env` (the environment wins); empty when unset. */
export function agentValue(
  key: string,
  env: NodeJS.ProcessEnv = process.env,
  envFile = resolve(process.cwd(), '.env'),
): string {
  const fromFile: Record<string, string> = existsSync(envFile) ? parse(readFileSync(envFile)) : {};
  return env[key] ?? fromFile[key] ?? '';
}

export const DEFAULT_CHROMIUM = SYSTEM_CHROMIUM;

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
export function checkPsuAgent(
  profile: Pick<Profile, 'sca'>,
  settings: Settings,
  env: NodeJS.ProcessEnv = process.env,
  envFile = resolve(process.cwd(), '.env'),
): void {
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
        if ('fill' in step && !agentValue(step.from, env, envFile))
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
