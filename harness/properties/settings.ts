import { createHash, randomInt } from 'node:crypto';
import { ENV } from '../config/env-names.mjs';
import { ConfigError } from '../config/errors.js';
import { loadSettings, passOn } from '../config/user-settings.mjs';

/**
 * The generated phase's depth and seed (OBG_GENERATED, OBG_GENERATED_SEED; `run --generated <depth>`
 * and `run --seed <s>` set them). A depth is a number of cases per property and a bound on the time
 * one property may take; a walk's cases are sequences of operations, far dearer (an SCA each), so
 * they have their own count.
 */
export interface Depth {
  name: string;
  /** Cases of a property over request bodies. */
  cases: number;
  /** Cases of a property declared once per service × product (fifteen of them: fewer each). */
  perCombination: number;
  /** Cases (walks) of a state-walk property, and the most operations in one walk. */
  walks: number;
  walkLength: number;
  /** The most a property may take, generating and shrinking (ms): past it, it ends with what it has seen. */
  timeLimitMs: number;
}

export const DEPTHS: Record<'default' | 'nightly', Depth> = {
  default: { name: 'default', cases: 20, perCombination: 8, walks: 4, walkLength: 8, timeLimitMs: 20_000 },
  nightly: { name: 'nightly', cases: 200, perCombination: 100, walks: 30, walkLength: 12, timeLimitMs: 240_000 },
};

/** The depth the settings name; undefined when the generated phase is off. */
export function generatedDepth(): Depth | undefined {
  const raw = loadSettings().own.generated;
  if (raw === 'off') return undefined;
  if (raw === 'default' || raw === 'nightly') return DEPTHS[raw];
  if (/^\d+$/.test(raw) && Number(raw) >= 1 && Number(raw) <= 100_000) {
    const cases = Number(raw);
    // A number of cases per property: walks in proportion (a tenth), bounded in time as nightly is.
    return {
      ...DEPTHS.nightly,
      name: raw,
      cases,
      perCombination: Math.max(1, Math.ceil(cases / 2)),
      walks: Math.max(1, Math.ceil(cases / 10)),
    };
  }
  throw new ConfigError(
    `${ENV.generated}: "${raw}" is not a depth of the generated phase (default, nightly, off, or a number of cases per property from 1 to 100000).`,
  );
}

/** Why a generated test is skipped when the phase is off. */
export const GENERATED_OFF = `not judged: the generated phase is off (${ENV.generated}=off, run --generated off)`;

let runSeed: number | undefined;

/**
 * The run's seed: OBG_GENERATED_SEED, else one drawn for the run (the runner draws it once and
 * hands it to its workers; a worker started without it draws its own, which its failures name).
 */
export function generatedSeed(): number {
  if (runSeed !== undefined) return runSeed;
  const raw = loadSettings().own.generatedSeed;
  if (raw && !/^-?\d+$/.test(raw))
    throw new ConfigError(`${ENV.generatedSeed}: "${raw}" is not a seed (a whole number, as a failure names it).`);
  runSeed = raw ? Number(raw) | 0 : randomInt(0, 2 ** 31 - 1);
  return runSeed;
}

/**
 * Called by the runner (playwright.config.ts): a run started without `obg-conformance run` (a bare
 * `playwright test`) draws its seed here once, and its workers inherit it.
 */
export function shareGeneratedSeed(): void {
  if (!loadSettings().own.generatedSeed) passOn({ [ENV.generatedSeed]: String(generatedSeed()) });
}

/** The seed of one property: the run's seed mixed with the property's title, so each replays alone or in the run. */
export function propertySeed(title: string, seed = generatedSeed()): number {
  return createHash('sha256').update(`${seed}\u0000${title}`).digest().readInt32BE(0);
}

/** The run's generated phase as its report names it: depth, cases per property and seed. */
export function generatedOfRun(): { depth: string; cases: number; seed: number } {
  const depth = generatedDepth();
  return { depth: depth?.name ?? 'off', cases: depth?.cases ?? 0, seed: generatedSeed() };
}
