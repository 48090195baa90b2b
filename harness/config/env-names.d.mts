/** The keys of ENV_VARS (env-names.mjs); a unit test holds that both name the same. */
export type EnvKey =
  | 'allureAppendHistory'
  | 'allureBoth'
  | 'allureOutput'
  | 'allureSingleFile'
  | 'areaProjects'
  | 'cache'
  | 'cacheDir'
  | 'commit'
  | 'console'
  | 'embeddedSandbox'
  | 'evidence'
  | 'generated'
  | 'generatedSeed'
  | 'limiter'
  | 'probe'
  | 'proofPlan'
  | 'quiet'
  | 'runNarrowed'
  | 'runNarrowedBeyondShard'
  | 'settingsHandedDown'
  | 'targetUnavailable'
  | 'workers'
  | 'writeBaseline';

export interface EnvVar {
  name: string;
  /** A setting a user writes (environment or .env), documented for users; else a hand-off between the suite's processes. */
  setting: boolean;
  /** Files of the package, or `user`. */
  writers: string[];
  readers: string[];
  about: string;
}

export const ENV_VARS: Record<EnvKey, EnvVar>;
export const ENV: Record<EnvKey, string>;
export const ENV_NAME_EXCEPTIONS: string[];
