// @ts-check
// The runner's options of the generated phase (tests/payments/generated/): `--seed <s>` replays a run's
// cases and shrinks, `--generated <depth>` chooses its depth (default, nightly, off, or a number of
// cases per property). Both become settings for the run's workers (OBG_GENERATED_SEED,
// OBG_GENERATED); the seed is drawn here once when none is given, so that every worker generates
// from the same one and a failure names the seed that replays it.
import { randomInt } from 'node:crypto';
import { ENV } from '../harness/config/env-names.mjs';
import { envFileOf, loadSettings } from '../harness/config/user-settings.mjs';

const OPTION = /^--(seed|generated)(?:=(.*))?$/;

/**
 * Takes the generated phase's options out of the runner's arguments. Returns the arguments left
 * for Playwright, the settings for the run's environment and the run's seed, or { error }.
 * @param {string[]} args
 * @returns {{ args: string[], seed: number, env: Record<string, string>, error?: undefined } | { error: string }}
 */
export function generatedOptionsOf(args, env = process.env, cwd = process.cwd()) {
  /** @type {{ seed?: string, generated?: string }} */
  const given = {};
  /** @type {string[]} */
  const rest = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--') {
      rest.push(...args.slice(i));
      break;
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
  const seed = seedText ? Number(seedText) | 0 : randomInt(0, 2 ** 31 - 1);
  return {
    args: rest,
    seed,
    env: { [ENV.generatedSeed]: String(seed), ...(depth ? { [ENV.generated]: depth } : {}) },
  };
}
