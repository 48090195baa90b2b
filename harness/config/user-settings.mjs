// The settings a user sets, read in one place. Their schema is settings.schema.json (each key's
// kind, default, description, group and readers); this module is the one reader of `.env`, with
// one precedence everywhere: a key set in the environment (even to an empty value) wins over
// `.env` in the working folder. Plain JavaScript, so that the command (bin/), the runner's scripts
// (run by node alone), the configuration, the harness and the sandbox's command all read alike.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { parse } from 'dotenv';
import { ENV, ENV_VARS } from './env-names.mjs';

/** The settings schema (settings.schema.json). */
export const SETTINGS_SCHEMA = createRequire(import.meta.url)('./settings.schema.json');

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

/** One setting, trimmed: the environment, else `.env`; empty when neither sets it. */
export function setting(key, env = process.env, file = envFileOf()) {
  return (userEnv(env, file)[key] ?? '').trim();
}

/** Where `.env` gave its values from, for a message naming a key: " (environment or <file>)" or " (environment)". */
export function whereFrom(file = envFileOf()) {
  return Object.keys(envFileValues(file)).length ? ` (environment or ${file})` : ' (environment)';
}

/** A switch setting's value: true (on, 1, true, yes), false (empty, off, 0, false, no), undefined when neither. */
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
  const value = setting('REPORTS_DIR', env, envFileOf(cwd)) || SETTINGS_SCHEMA.properties.REPORTS_DIR.default;
  return resolve(cwd, value);
}

/**
 * Every documented setting, in the schema's order, as { name, spec }: the schema's properties,
 * the suite's own OBG_* settings (env-names.mjs, placed by `registry`) and the families
 * (patternProperties, named by their `name`).
 */
export function documentedSettings() {
  const own = Object.entries(SETTINGS_SCHEMA.registry).map(([key, place]) => ({
    name: ENV[key],
    spec: { type: 'string', description: ENV_VARS[key].about, readers: ENV_VARS[key].readers, ...place },
  }));
  const families = Object.values(SETTINGS_SCHEMA.patternProperties).map((spec) => ({ name: spec.name, spec }));
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
