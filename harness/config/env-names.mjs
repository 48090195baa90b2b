// @ts-check
// The suite's own environment variables (OBG_*), each named once, with who writes it and who reads
// it. Plain JavaScript without imports, so that the runner's scripts (.mjs, run by node alone),
// allurerc.mjs, the harness, the self-tests and playwright.config.ts all take the name from here;
// the lint (eslint.config.mjs) refuses an OBG_* name written anywhere else. The settings a user
// sets (`setting: true`) are documented for users, placed among the user's settings by their key
// (settings.schema.json, `registry`) and read like every setting (user-settings.mjs); the others
// are hand-offs between the suite's own processes, read with `internal(<key>)` and written with
// `passOn` or into a child's own environment (user-settings.mjs, the one module that touches the
// process's environment).

/**
 * @typedef {{ name: string, setting: boolean, writers: string[], readers: string[], about: string }} EnvVar
 * `writers` and `readers` are files of the package (a unit test holds that each uses the name
 * through ENV, a reader of a hand-off through `internal('<key>')`), or `user` for a setting
 * written in the environment or .env.
 */

/** The suite's own environment variables by key. */
export const ENV_VARS = /** @satisfies {Record<string, EnvVar>} */ ({
  allureAppendHistory: {
    name: 'OBG_ALLURE_APPEND_HISTORY',
    setting: false,
    writers: ['scripts/certify.ts', 'scripts/allure-html.mjs'],
    readers: ['allurerc.mjs', 'scripts/allure-html.mjs'],
    about: '0: the Allure report keeps no history (the single-file and certification reports)',
  },
  allureBoth: {
    name: 'OBG_ALLURE_BOTH',
    setting: false,
    writers: ['scripts/allure-html.mjs'],
    readers: ['allurerc.mjs'],
    about:
      '1: one allure generate builds both forms (the served folder and the single file) from one reading of the results',
  },
  allureOutput: {
    name: 'OBG_ALLURE_OUTPUT',
    setting: false,
    writers: ['scripts/allure-html.mjs', 'scripts/certify.ts'],
    readers: ['allurerc.mjs'],
    about: 'the folder of the Allure report being built',
  },
  allureSingleFile: {
    name: 'OBG_ALLURE_SINGLE_FILE',
    setting: false,
    writers: ['scripts/certify.ts'],
    readers: ['allurerc.mjs'],
    about: '1: the Allure report as one self-contained HTML file',
  },
  areaProjects: {
    name: 'OBG_AREA_PROJECTS',
    setting: false,
    writers: ['playwright.config.ts'],
    readers: ['playwright.config.ts', 'harness/reporter/conformance.ts'],
    about: '1: a Playwright project per area (--project given); decided in the runner, read in its workers',
  },
  cache: {
    name: 'OBG_CACHE',
    setting: true,
    writers: ['user'],
    readers: ['harness/config/cache.ts'],
    about: '0: keep no cached schema compilations',
  },
  cacheDir: {
    name: 'OBG_CACHE_DIR',
    setting: true,
    writers: ['user'],
    readers: ['harness/config/cache.ts'],
    about: 'the folder of the cache (default <tmp>/obg-conformance-cache)',
  },
  commit: {
    name: 'OBG_COMMIT',
    setting: true,
    writers: ['user', 'playwright.config.ts'],
    readers: ['harness/reporter/run-info.ts', 'playwright.config.ts'],
    about:
      "the suite's commit as the reports name it, where git cannot tell (an installed package); the runner sets it for its workers",
  },
  console: {
    name: 'OBG_CONSOLE',
    setting: true,
    writers: ['user', 'scripts/conformance.mjs'],
    readers: ['harness/config/run-options.mjs'],
    about:
      "what a run prints: suite (default: a progress line, then the verdict, each failed MUST and each root cause) or playwright-list (Playwright's list of every test beside it; run --playwright-list)",
  },
  embeddedSandbox: {
    name: 'OBG_EMBEDDED_SANDBOX',
    setting: false,
    writers: ['embedded-sandbox.ts'],
    readers: ['embedded-sandbox.ts', 'harness/config/target.ts', 'harness/config/run-options.mjs'],
    about: '1: the runner started the embedded sandbox (its workers see the same target)',
  },
  evidence: {
    name: 'OBG_EVIDENCE',
    setting: false,
    writers: ['selftest/proof/run.ts'],
    readers: ['harness/test.ts', 'harness/http/client.ts'],
    about:
      'off: no evidence attachments, no steps per call and none for the claims fixture (the self-proof judges verdicts only, without Allure)',
  },
  generated: {
    name: 'OBG_GENERATED',
    setting: true,
    writers: ['user', 'scripts/generated-options.mjs'],
    readers: ['harness/properties/settings.ts', 'scripts/generated-options.mjs'],
    about:
      'the depth of the generated phase (tests/payments/properties/): default, nightly, off, or a number of cases per property (run --generated <depth>)',
  },
  generatedSeed: {
    name: 'OBG_GENERATED_SEED',
    setting: true,
    writers: ['user', 'scripts/generated-options.mjs', 'harness/properties/settings.ts'],
    readers: ['harness/properties/settings.ts', 'scripts/generated-options.mjs'],
    about:
      "the generated phase's seed: the same seed replays the same cases and shrinks (run --seed <s>); default a new one per run",
  },
  limiter: {
    name: 'OBG_LIMITER',
    setting: false,
    writers: ['harness/global-setup.ts'],
    readers: ['harness/http/limits.ts'],
    about: "the address of the run's request limiter, for the workers",
  },
  probe: {
    name: 'OBG_PROBE',
    setting: true,
    writers: ['user', 'selftest/hostile/refuses-everything.spec.ts', 'selftest/hostile/transport.spec.ts'],
    readers: ['harness/global-setup.ts'],
    about: '0: no early probe of the target; every check is judged on its own',
  },
  proofPlan: {
    name: 'OBG_PROOF_PLAN',
    setting: false,
    writers: ['selftest/proof/run.ts'],
    readers: ['harness/proof.ts', 'selftest/proof/reporter.ts'],
    about: "the self-proof's plan (a JSON file): the entries every test is declared for",
  },
  quiet: {
    name: 'OBG_QUIET',
    setting: false,
    writers: [
      'selftest/support/run-suite.ts',
      'selftest/package/init.spec.ts',
      'selftest/bench/runs.ts',
      'selftest/hostile/refuses-everything.spec.ts',
    ],
    readers: ['playwright.config.ts', 'harness/global-setup.ts'],
    about: "1: the suite's console without progress lines, and no probe line (child runs of the self-tests)",
  },
  runNarrowed: {
    name: 'OBG_RUN_NARROWED',
    setting: false,
    writers: ['scripts/conformance.mjs', 'selftest/support/run-suite.ts'],
    readers: ['harness/reporter/conformance.ts'],
    about: '1: the command line narrowed the run (a grep, a project, a file): its verdict is partial',
  },
  runNarrowedBeyondShard: {
    name: 'OBG_RUN_NARROWED_BEYOND_SHARD',
    setting: false,
    writers: ['scripts/conformance.mjs', 'selftest/cli/shards.spec.ts'],
    readers: ['harness/reporter/conformance.ts'],
    about: '0: a shard whose command line narrows nothing else (the merged shards judge the whole)',
  },
  settingsHandedDown: {
    name: 'OBG_SETTINGS_HANDED_DOWN',
    setting: false,
    writers: ['harness/config/user-settings.mjs'],
    readers: ['harness/config/user-settings.mjs'],
    about:
      "1: the process that started this one handed down the resolved settings in the environment (the command's Playwright, the embedded sandbox, Allure): no .env is read",
  },
  targetUnavailable: {
    name: 'OBG_TARGET_UNAVAILABLE',
    setting: false,
    writers: ['harness/global-setup.ts'],
    readers: ['harness/reporter/conformance.ts'],
    about: 'why the early probe found no usable API (the run then exits 3)',
  },
  workers: {
    name: 'OBG_WORKERS',
    setting: true,
    writers: [
      'user',
      'playwright.config.ts',
      'selftest/support/run-suite.ts',
      'selftest/package/init.spec.ts',
      'selftest/package/install.spec.ts',
      'selftest/unit/runner.spec.ts',
    ],
    readers: ['harness/config/run-options.mjs', 'selftest/proof/suite.config.ts'],
    about: 'parallel workers (default 10)',
  },
  writeBaseline: {
    name: 'OBG_WRITE_BASELINE',
    setting: false,
    writers: ['scripts/conformance.mjs'],
    readers: ['harness/reporter/history.ts'],
    about: "the file the run's failures and warnings are written to as a baseline (--write-baseline)",
  },
});

/**
 * Files that still write an OBG_* name as text (the lint lets them; the unit test then finds the
 * name itself there): each is to take it from ENV.
 */
/** @type {string[]} */
export const ENV_NAME_EXCEPTIONS = [];

/** @typedef {keyof typeof ENV_VARS} EnvKey The keys of ENV_VARS. */

/** The names by key: `ENV.workers` is OBG_WORKERS. */
export const ENV = /** @type {Record<EnvKey, string>} */ (
  Object.fromEntries(Object.entries(ENV_VARS).map(([key, v]) => [key, v.name]))
);
