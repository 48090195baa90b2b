// @ts-check
// The settings a user sets, read in one place. Their schema is settings.schema.json (each key's
// kind, default, description, group and readers); this module is the one reader of `.env`, with
// one precedence everywhere: a key set in the environment (even to an empty value) wins over
// `.env` in the working folder. Plain JavaScript, so that the command (bin/), the runner's scripts
// (run by node alone), the configuration, the harness and the sandbox's command all read alike.
// `loadSettings` applies the schema (its defaults) once per process and hands back one frozen
// object; a child process the suite starts is handed the resolved values (`handedDown`) and reads
// no `.env` of its own. It is also the one module that touches the process's environment: the
// suite's hand-offs between its own processes (`internal`), the few variables others set
// (`ambient`), the environment as a child's base (`environment`), and the values a process passes
// on to the processes it starts after (`passOn`); a unit test refuses `process.env` elsewhere.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import AjvModule from 'ajv';
import { parse } from 'dotenv';
import { ENV, ENV_VARS } from './env-names.mjs';

/**
 * @typedef {import('./env-names.mjs').EnvKey} EnvKey
 * @typedef {{ [K in EnvKey]: (typeof ENV_VARS)[K]['setting'] extends false ? K : never }[EnvKey]} InternalKey
 * One of the suite's hand-offs between its own processes (env-names.mjs, `setting: false`).
 * @typedef {typeof import('./settings.schema.json')} SettingsSchema
 * @typedef {keyof SettingsSchema['properties']} SettingKey A setting the schema names (its properties).
 * @typedef {keyof SettingsSchema['registry']} OwnSettingKey One of the suite's own OBG_* settings a user sets, by its registry key.
 * @typedef {Readonly<Record<SettingKey, string>> & {
 *   readonly own: Readonly<Record<OwnSettingKey, string>>,
 *   readonly named: Readonly<Record<string, string>>,
 *   readonly envFile: string,
 * }} Settings The process's settings, the schema applied (loadSettings).
 * @typedef {{ type: string, group: string, kind: string, summary: string, description: string, readers: string[], default?: string, examples?: string[], name?: string }} SettingSpec
 * @typedef {{ name: string, spec: SettingSpec }} DocumentedSetting A documented setting: a property, one of the suite's own OBG_* settings, or a family.
 */

/** The settings schema (settings.schema.json). */
export const SETTINGS_SCHEMA = /** @type {SettingsSchema} */ (createRequire(import.meta.url)('./settings.schema.json'));

/** The keys of the schema's settings, and of the suite's own OBG_* settings (by their registry key). */
const KEYS = /** @type {SettingKey[]} */ (Object.keys(SETTINGS_SCHEMA.properties));
const OWN_KEYS = /** @type {OwnSettingKey[]} */ (Object.keys(SETTINGS_SCHEMA.registry));

/** The `.env` of a working folder. */
export const envFileOf = (cwd = process.cwd()) => resolve(cwd, '.env');

/** @type {Map<string, { mtimeMs: number, size: number, values: Record<string, string> }>} */
const parsed = new Map();

/** The values `.env` at `file` gives (empty when there is none), parsed once while the file stays the same. */
export function envFileValues(file = envFileOf()) {
  if (!existsSync(file)) return {};
  const { mtimeMs, size } = statSync(file);
  const kept = parsed.get(file);
  if (kept && kept.mtimeMs === mtimeMs && kept.size === size) return kept.values;
  const values = parse(readFileSync(file));
  parsed.set(file, { mtimeMs, size, values });
  return values;
}

/**
 * The user's settings as one record: `.env` at `file`, under the environment `env` (a key the
 * environment sets, even to an empty value, wins). Every reader of a setting takes it from here.
 */
export function userEnv(env = process.env, file = envFileOf()) {
  const out = { ...envFileValues(file) };
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}

/** Where `.env` gave its values from, for a message naming a key: " (environment or <file>)" or " (environment)". */
export function whereFrom(file = envFileOf()) {
  return Object.keys(envFileValues(file)).length ? ` (environment or ${file})` : ' (environment)';
}

/**
 * A switch setting's value: true (on, 1, true, yes), false (empty, off, 0, false, no), undefined when neither.
 * @param {string | undefined} raw
 * @returns {boolean | undefined}
 */
export function switchValue(raw) {
  const v = String(raw ?? '')
    .trim()
    .toLowerCase();
  if (['', '0', 'off', 'false', 'no'].includes(v)) return false;
  if (['1', 'on', 'true', 'yes'].includes(v)) return true;
  return undefined;
}

/** The reports folder: REPORTS_DIR (environment, else .env), relative to the working folder; default reports. */
export function reportsDirOf(env = process.env, cwd = process.cwd()) {
  return resolve(cwd, loadSettings(env, envFileOf(cwd)).REPORTS_DIR);
}

/**
 * Every documented setting, in the schema's order, as { name, spec }: the schema's properties,
 * the suite's own OBG_* settings (env-names.mjs, placed by `registry`) and the families
 * (patternProperties, named by their `name`).
 */
export function documentedSettings() {
  /** @type {DocumentedSetting[]} */
  const own = OWN_KEYS.map((key) => ({
    name: ENV[key],
    spec: { type: 'string', readers: ENV_VARS[key].readers, ...SETTINGS_SCHEMA.registry[key] },
  }));
  const families = Object.values(SETTINGS_SCHEMA.patternProperties).map((spec) => ({ name: spec.name, spec }));
  /** @type {DocumentedSetting[]} */
  const all = [
    ...Object.entries(SETTINGS_SCHEMA.properties).map(([name, spec]) => ({ name, spec })),
    ...own,
    ...families,
  ];
  const order = Object.keys(SETTINGS_SCHEMA.groups);
  return all
    .map((s, i) => ({ ...s, i }))
    .sort((a, b) => order.indexOf(a.spec.group) - order.indexOf(b.spec.group) || a.i - b.i)
    .map(({ name, spec }) => ({ name, spec }));
}

/**
 * The schema ajv applies: every setting a string (trimmed before), its `default` filled in when it
 * is unset or empty (useDefaults "empty"), as the profile's defaults are (harness/config/ajv.ts).
 */
const APPLIED = {
  type: 'object',
  properties: Object.fromEntries(
    [
      ...KEYS.map((k) => /** @type {[string, { default?: string }]} */ ([k, SETTINGS_SCHEMA.properties[k]])),
      ...OWN_KEYS.map((k) => /** @type {[string, { default?: string }]} */ ([ENV[k], SETTINGS_SCHEMA.registry[k]])),
    ].map(([name, spec]) => [
      name,
      { type: 'string', ...(spec.default !== undefined ? { default: spec.default } : {}) },
    ]),
  ),
};
// ajv's CommonJS export is the class itself under Node's ESM.
const applySchema = new AjvModule({ useDefaults: 'empty', coerceTypes: true, strict: false }).compile(APPLIED);

/** @type {{ key: string, settings: Settings } | undefined} */
let last;

/**
 * The process's settings, the schema applied: every setting of settings.schema.json by its key
 * (trimmed; its default when unset or empty; else empty), the suite's own OBG_* settings by their
 * registry key (`own`), and every value of the environment over `.env` (`named`: the keys a
 * profile names, e.g. a browser step's `from` or a required header's `fromEnv`, and the tokens of
 * single scopes). Frozen; read once while the environment and `.env` stay the same. A process the
 * suite started with the values handed down (`handedDown`) reads no `.env`.
 *
 * @param {NodeJS.ProcessEnv} [env]
 * @param {string} [envFile]
 * @returns {Settings}
 */
export function loadSettings(env = process.env, envFile = envFileOf()) {
  const file = env[ENV.settingsHandedDown] === '1' ? '' : envFile;
  const stat = file && existsSync(file) ? statSync(file) : undefined;
  const key = JSON.stringify([file, stat?.mtimeMs, stat?.size, env]);
  if (last?.key === key) return last.settings;
  const named = Object.freeze(file ? userEnv(env, file) : stringsOf(env));
  /** @type {Record<string, string>} */
  const data = {};
  for (const name of Object.keys(APPLIED.properties)) {
    const value = named[name]?.trim();
    if (value) data[name] = value;
  }
  applySchema(data);
  const value = (/** @type {string} */ name) => data[name] ?? '';
  const settings = Object.freeze({
    ...Object.fromEntries(KEYS.map((k) => [k, value(k)])),
    own: Object.freeze(Object.fromEntries(OWN_KEYS.map((k) => [k, value(ENV[k])]))),
    named,
    envFile: file,
  });
  last = { key, settings: /** @type {Settings} */ (/** @type {unknown} */ (settings)) };
  return last.settings;
}

/** @param {NodeJS.ProcessEnv} env */
const stringsOf = (env) =>
  /** @type {Record<string, string>} */ (Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)));

/**
 * The environment of a child process the suite starts (Playwright under the command, the embedded
 * sandbox, Allure): `env` with every resolved setting that has a value (a default included, the
 * keys only `.env` gave too), marked as handed down, so that the child reads no `.env` of its own
 * folder (a staged package's, the configuration's) and sees what this process saw.
 *
 * @param {Settings} [settings]
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {Record<string, string>}
 */
export function handedDown(settings = loadSettings(), env = process.env) {
  const own = Object.fromEntries(OWN_KEYS.map((k) => [ENV[k], settings.own[k]]));
  const resolved = { ...settings.named, ...Object.fromEntries(KEYS.map((k) => [k, settings[k]])), ...own };
  return {
    ...stringsOf(env),
    ...Object.fromEntries(Object.entries(resolved).filter(([, v]) => v !== '')),
    [ENV.settingsHandedDown]: '1',
  };
}

/**
 * One of the suite's hand-offs between its own processes (env-names.mjs, `setting: false`: the
 * runner to its workers and reporters, the command to Allure, the self-proof to the suite), as
 * `env` holds it now; empty when unset. Read when asked, not once per process: the runner writes
 * some after its configuration and reporters were loaded and reads them itself (the limiter's
 * address, why the target is unavailable, the area projects), and a child sees what its parent
 * wrote before starting it. A user's OBG_* setting is a field of the settings (`own`), not this.
 *
 * @param {InternalKey} key
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {string}
 */
export function internal(key, env = process.env) {
  return env[ENV[key]] ?? '';
}

/**
 * The variables others set that the suite reads, each with why; none is a setting of the user's
 * (no `.env`, no default): the environment alone says.
 */
export const AMBIENT = Object.freeze({
  CI: 'a CI service: no test.only, and the console prints no progress line',
  TEST_WORKER_INDEX: "Playwright's, in its workers: the configuration read again there takes the runner's word",
  TEST_PARALLEL_INDEX: "Playwright's, in its workers: the workers of one run share one PSU lock (the runner's id)",
  LD_LIBRARY_PATH: "the system's library path, extended for the npm package's Chromium and its libraries",
});

/**
 * A variable of AMBIENT as this process's environment holds it (undefined when unset).
 * @param {keyof typeof AMBIENT} name
 * @returns {string | undefined}
 */
export function ambient(name) {
  return process.env[name];
}

/**
 * This process's environment, as a new record of strings: the base of the environment of a child
 * that is not handed the settings (a browser; init, which reads the working folder's `.env` itself;
 * the self-tests, which resolve their own), or `env` for a reader that takes one.
 * @returns {Record<string, string>}
 */
export function environment() {
  return stringsOf(process.env);
}

/**
 * Passes `values` on to the processes this one starts from now on, by writing them into its
 * environment (`env`, this process's by default): for the processes that are started without an
 * environment of the suite's choosing, Playwright's workers (which inherit the runner's) and its
 * web server. A child the suite starts itself is given its environment (`handedDown`).
 *
 * @param {Record<string, string>} values
 * @param {NodeJS.ProcessEnv} [env]
 */
export function passOn(values, env = process.env) {
  Object.assign(env, values);
}
