// @ts-check
// The runner's options of the generated phase (tests/payments/properties/): `--seed <s>` replays a run's
// cases and shrinks, `--generated <depth>` chooses its depth (default, nightly, off, or a number of
// cases per property), `--pin-seed` takes PINNED_SEED when no seed is given. Both become settings for the run's workers (OBG_GENERATED_SEED,
// OBG_GENERATED); the seed is drawn here once when none is given, so that every worker generates
// from the same one and a failure names the seed that replays it.
import { randomInt } from 'node:crypto';
import { ENV } from '../harness/config/env-names.mjs';
import { envFileOf, loadSettings } from '../harness/config/user-settings.mjs';

const OPTION = /^--(seed|generated)(?:=(.*))?$/;

/**
 * The seed a run takes when none is given but its cases must be the same each time: a
 * certification (`certify` runs the suite with `--pin-seed`), a run judged against a baseline
 * (BASELINE) and a run writing one (`--write-baseline`), so that a baselined failure of the
 * generated phase is the same failure in the next run.
 */
export const PINNED_SEED = 1;
const PIN = '--pin-seed';

/**
 * Takes the generated phase's options out of the runner's arguments. Returns the arguments left
 * for Playwright, the settings for the run's environment and the run's seed, or { error }.
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} [env] the process's environment unless given
 * @param {string} [cwd]
 * @returns {{ args: string[], seed: number, env: Record<string, string>, error?: undefined } | { error: string }}
 */
export function generatedOptionsOf(args, env, cwd = process.cwd()) {
  /** @type {{ seed?: string, generated?: string, pin?: boolean }} */
  const given = {};
  /** @type {string[]} */
  const rest = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--') {
      rest.push(...args.slice(i));
      break;
    }
    if (args[i] === PIN) {
      given.pin = true;
      continue;
    }
    const m = OPTION.exec(args[i]);
    if (!m) {
      rest.push(args[i]);
      continue;
    }
    const value = m[2] ?? args[++i];
    if (value === undefined || value === '') return { error: `--${m[1]}: a value is needed (--${m[1]} <value>).` };
    given[/** @type {'seed' | 'generated'} */ (m[1])] = value;
  }
  const settings = loadSettings(env, envFileOf(cwd));
  const depth = given.generated ?? settings.own.generated;
  if (depth && !/^(default|nightly|off|\d+)$/.test(depth))
    return {
      error: `--generated / ${ENV.generated}: "${depth}" is not a depth (default, nightly, off, or a number of cases per property).`,
    };
  const seedText = given.seed ?? settings.own.generatedSeed;
  if (seedText && !/^-?\d+$/.test(seedText))
    return {
      error: `--seed / ${ENV.generatedSeed}: "${seedText}" is not a seed (a whole number, as a failure names it).`,
    };
  const pinned = given.pin || !!settings.BASELINE || args.some((a) => /^--write-baseline(=|$)/.test(a));
  const seed = seedText ? Number(seedText) | 0 : pinned ? PINNED_SEED : randomInt(0, 2 ** 31 - 1);
  return {
    args: rest,
    seed,
    env: { [ENV.generatedSeed]: String(seed), ...(depth ? { [ENV.generated]: depth } : {}) },
  };
}
