// @ts-check
// The run's decisions that do not need a run: where the reports go, whether the command line
// only lists the tests, how many workers run. Pure functions, unit-tested (selftest/unit/runner.spec.ts),
// shared by the command's scripts (scripts/), the configuration and the reporter.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ENV } from './env-names.mjs';
import { envFileOf, loadSettings, reportsDirOf, SETTINGS_SCHEMA } from './user-settings.mjs';

export { reportsDirOf };

/** The settings that name a target and its credentials: a run against the embedded sandbox takes none of them. */
const TARGET_SETTINGS = [
  'TARGET_BASE_URL',
  'TARGET_AUTH_URL',
  'CLIENT_ID',
  'CLIENT_SECRET',
  'ACCESS_TOKEN',
  'TARGET_PROFILE',
];

/**
 * `env` without the caller's target settings (per-scope tokens `ACCESS_TOKEN_<SCOPE>_<CONTEXT>`
 * included), for a run against the embedded sandbox: the self-tests' and the bench's runs.
 * @param {NodeJS.ProcessEnv} env
 * @returns {NodeJS.ProcessEnv}
 */
export function withoutTargetSettings(env) {
  const out = { ...env };
  for (const k of Object.keys(out)) if (TARGET_SETTINGS.includes(k) || k.startsWith('ACCESS_TOKEN_')) delete out[k];
  // Nor the marks of settings handed down and of an embedded sandbox started: the child run
  // resolves its own settings and starts its own sandbox.
  delete out[ENV.settingsHandedDown];
  delete out[ENV.embeddedSandbox];
  return out;
}

/**
 * True when the command line only lists the tests (`--list`): nothing is run, written or removed.
 * @param {string[]} args
 */
export function listsOnly(args) {
  return args.includes('--list');
}

/** The run's parallel workers when neither the command line nor OBG_WORKERS says (the schema's default). */
export const DEFAULT_WORKERS = Number(SETTINGS_SCHEMA.registry.workers.default);

/** The runner's own option that adds Playwright's list of every test to the suite's console. */
export const PLAYWRIGHT_LIST_OPTION = '--playwright-list';
/** @typedef {'suite' | 'playwright-list'} Console */
/** The values of OBG_CONSOLE: the suite's console alone (default), or Playwright's list beside its last lines. */
export const CONSOLES = /** @type {Console[]} */ (['suite', 'playwright-list']);

/**
 * What the run prints: OBG_CONSOLE (environment, else .env), `suite` (default: a progress line,
 * then the verdict) or `playwright-list` (Playwright's list of every test, its failures with their
 * code frames, then the suite's verdict). Returns { console } or { error } naming the key.
 * @param {NodeJS.ProcessEnv} [env] the process's environment unless given
 * @param {string} [cwd]
 * @returns {{ console?: Console, error?: string }}
 */
export function consoleOf(env, cwd = process.cwd()) {
  const raw = loadSettings(env, envFileOf(cwd)).own.console;
  return CONSOLES.includes(/** @type {Console} */ (raw))
    ? { console: /** @type {Console} */ (raw) }
    : { error: `${ENV.console}: "${raw}" is not a console (one of ${CONSOLES.join(', ')}; default suite).` };
}

/**
 * The seed of the order a run dispatches its tests in (Playwright's --shuffle), the same in every
 * run, so that a run repeats exactly. In the order of the files, the payment authorisations' SCA
 * waits came side by side and the cores idled while every worker waited; shuffled, the waits fall
 * between the other tests (the embedded run took 43 to 57 s against 62 to 64 s).
 */
export const SCHEDULE_SEED = 'obg';

/**
 * `args` with the suite's order of tests (`--shuffle=<SCHEDULE_SEED>`), unless they name one of
 * their own or choose several areas (`--project` twice or more): a run of chosen areas has a
 * Playwright project per area, a worker serves one project, and shuffled, the areas' tests would
 * alternate and every switch would start a new worker (a two-area run took five times the CPU).
 * @param {string[]} args
 * @returns {string[]}
 */
export function scheduled(args) {
  return chosenAreas(args).length > 1 || args.some((a) => /^--shuffle(=|$)/.test(a))
    ? args
    : [...args, `--shuffle=${SCHEDULE_SEED}`];
}

/**
 * The areas a command line chooses (`--project=<area>` or `--project <area>`), in its order; none for a whole run.
 * @param {string[]} args
 * @returns {string[]}
 */
export function chosenAreas(args) {
  return args.flatMap((a, i) => (a === '--project' ? [args[i + 1]] : a.startsWith('--project=') ? [a.slice(10)] : []));
}

/**
 * The run's parallel workers: `-j`/`--workers` on the command line, else OBG_WORKERS, else 10.
 * Returns { workers } or { error } naming the key.
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} [env] the process's environment unless given
 * @param {string} [cwd]
 * @returns {{ workers?: number, percent?: string, error?: string }}
 */
export function workersOf(args, env, cwd = process.cwd()) {
  /** @type {string | undefined} */
  let fromArgs;
  args.forEach((a, i) => {
    const m = /^(?:-j|--workers)(?:=(.*))?$/.exec(a);
    if (m) fromArgs = m[1] ?? args[i + 1];
  });
  const raw = fromArgs ?? loadSettings(env, envFileOf(cwd)).own.workers;
  if (!raw) return { workers: DEFAULT_WORKERS };
  const key = fromArgs !== undefined ? '--workers' : ENV.workers;
  if (/%$/.test(raw)) return { workers: undefined, percent: raw };
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 64)
    return {
      error: `${key}: "${raw}" is not a number of workers (a whole number from 1 to 64; default ${DEFAULT_WORKERS}).`,
    };
  return { workers: Number(raw) };
}

/**
 * The profile's accounts.readerPsuIds gives one PSU to each parallel worker of the accounts
 * checks: it must name at least as many PSUs as the run has workers. An error message, or undefined.
 * @param {{ accounts?: { readerPsuIds?: string[] } } | undefined} profile
 * @param {number | undefined} workers
 * @returns {string | undefined}
 */
export function readerPsuProblem(profile, workers, profileName = 'the profile') {
  const pool = profile?.accounts?.readerPsuIds;
  if (!pool || !workers || pool.length >= workers) return undefined;
  return (
    `accounts.readerPsuIds (${profileName}): names ${pool.length} PSU(s) and the run has ${workers} workers ` +
    `(OBG_WORKERS or --workers; default ${DEFAULT_WORKERS}): each worker's accounts checks need a PSU of their own. ` +
    `Name at least ${workers} PSU ids, or run with --workers=${pool.length}.`
  );
}

/**
 * A file of an installed package (its CLI), found where Node resolves the package from `root`; undefined when not installed.
 * @param {string} root
 * @param {string} pkg
 * @param {string} file
 * @returns {string | undefined}
 */
export function packageFile(root, pkg, file) {
  const paths = createRequire(join(root, 'package.json')).resolve.paths(pkg) ?? [];
  const dir = paths.map((d) => join(d, pkg)).find((d) => existsSync(join(d, 'package.json')));
  return dir && join(dir, file);
}
