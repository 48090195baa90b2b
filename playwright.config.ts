import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig, type PlaywrightTestConfig } from '@playwright/test';
import { ConfigError } from './harness/config/errors.js';
import { fromRoot } from './harness/config/paths.js';
import { resolveTarget } from './harness/config/target.js';
import { suiteInfo } from './harness/reporter/run-info.js';
import { chosenAreas, consoleOf, listsOnly, readerPsuProblem, workersOf } from './harness/config/run-options.mjs';
import { ENV } from './harness/config/env-names.mjs';
import { ambient, internal, loadSettings, passOn } from './harness/config/user-settings.mjs';
import { embeddedSandboxServer, prepareEmbeddedSandbox } from './embedded-sandbox.js';
import { shareGeneratedSeed } from './harness/properties/settings.js';

/** Areas: folder under tests/, Playwright project, Allure epic, requirements/<area>.yaml. */
export const AREAS = [
  'directory',
  'headers',
  'consents',
  'authorisations',
  'oauth',
  'accounts',
  'payments',
  'signing-baskets',
  'direct-debit',
] as const;

// With no TARGET_BASE_URL the reference sandbox is started on a free port with fresh
// credentials; a bad setting or profile stops here, before any test, naming the key or field.
// A configuration error is a message and a hint, exit 2; its stack only with DEBUG=obg.
function configured<T>(step: () => T): T {
  try {
    return step();
  } catch (err) {
    if (!(err instanceof ConfigError) || /\bobg\b/.test(loadSettings().DEBUG)) throw err;
    console.error(`obg-conformance: configuration error: ${err.message}`);
    console.error(
      'hint: settings come from the environment or .env in the working folder (see .env.example; `obg-conformance run --help` lists the keys); DEBUG=obg adds the stack.',
    );
    // Found in a worker (which reads this file again): the run stops once, at once, with no verdict
    // (its reporter writes no report and no history record: harness/reporter/conformance.ts).
    if (ambient('TEST_WORKER_INDEX') !== undefined) process.kill(process.ppid, 'SIGINT');
    process.exit(2);
  }
}
const sandboxEnv = configured(() => prepareEmbeddedSandbox());
const target = configured(() => resolveTarget());
const workers = configured(() => {
  const w = workersOf(process.argv.slice(2));
  if (w.error) throw new ConfigError(w.error);
  // Only a run with the accounts checks needs a PSU per worker. The runner checks it, from its
  // command line; a worker, which reads this file again without that line, takes the runner's word.
  const projects = chosenAreas(process.argv.slice(2));
  const accounts = ambient('TEST_WORKER_INDEX') === undefined && (!projects.length || projects.includes('accounts'));
  const problem = accounts ? readerPsuProblem(target.profile, w.workers, target.profileName) : undefined;
  if (problem) throw new ConfigError(problem);
  // The workers read this file again, without the runner's command line: they see its count (from
  // --workers or OBG_WORKERS) through OBG_WORKERS, so every process of the run checks the same one.
  passOn({ [ENV.workers]: String(w.workers ?? w.percent) });
  return w.workers ?? w.percent!;
});
// What the run prints (OBG_CONSOLE, or run --playwright-list): the suite's console, or Playwright's list beside it.
const printed = configured(() => {
  const c = consoleOf();
  if (c.error) throw new ConfigError(c.error);
  return c.console!;
});
const reports = target.reportsDir;
const info = suiteInfo();
// The workers read the commit from here instead of asking git each (harness/reporter/run-info.ts).
passOn({ [ENV.commit]: info.commit });
// The generated phase's seed, one for the run (harness/properties/settings.ts).
configured(() => shareGeneratedSeed());
const requestAndSca = target.timeouts.requestMs * 4 + target.timeouts.scaMs;

// A whole run is ONE project, so that any worker runs any area's tests (a Playwright worker
// serves one project, and starting one costs about a second of CPU). `--project=<area>` still
// selects areas: then there is a project per area. Decided once in the runner and passed to the
// workers it starts (they read this file too).
if (!internal('areaProjects')) passOn({ [ENV.areaProjects]: chosenAreas(process.argv.slice(2)).length ? '1' : '0' });
const areaProjects = internal('areaProjects') === '1';

const config: PlaywrightTestConfig = {
  testDir: 'tests',
  outputDir: join(reports, 'test-results'),
  fullyParallel: true,
  // A target that answers nothing usable is recognised once, before the tests (harness/probe.ts).
  globalSetup: fromRoot('harness/global-setup.ts'),
  forbidOnly: !!ambient('CI'),
  retries: 0,
  // Tests mostly wait on the target (SCA, polling): workers are sized for I/O, not CPU.
  // OBG_WORKERS (default 10), or --workers on the command line; checked against accounts.readerPsuIds above.
  workers,
  timeout: Math.max(60_000, requestAndSca),
  expect: { timeout: target.timeouts.scaMs },
  // `--list` runs nothing and writes nothing (no junit.xml, no Allure results, no history record).
  reporter: listsOnly(process.argv)
    ? [['list']]
    : [
        // First: a failure whose worker was kept is a failure again for every reporter after it.
        [fromRoot('harness/reporter/outcome.ts')],
        // The suite's console (harness/reporter/console.ts): a progress line, then the verdict. It
        // reads the report the conformance reporter writes, so it comes after it (see the last entry).
        ...(printed === 'playwright-list' ? [['list'] as ['list']] : []),
        ['junit', { outputFile: join(reports, 'junit.xml') }],
        // A shard (--shard=i/n) also writes Playwright's blob report, which `npm run merge` joins with the other shards'.
        ...(process.argv.some((a) => a === '--shard' || a.startsWith('--shard='))
          ? [['blob', { outputDir: join(reports, 'blob-report') }] as ['blob', { outputDir: string }]]
          : []),
        // allure-playwright, writing its results without a flush to the disk per file (harness/reporter/allure.ts).
        [
          fromRoot('harness/reporter/allure.ts'),
          {
            resultsDir: join(reports, 'allure-results'),
            detail: true,
            suiteTitle: true,
            // No environment info ("Metadata"): the report's variables (allurerc.mjs) say the
            // same, and a shorter head keeps the verdict on the report's first screen.
          },
        ],
        [fromRoot('harness/reporter/conformance.ts')],
        [
          fromRoot('harness/reporter/console.ts'),
          { progress: internal('quiet') !== '1' && printed !== 'playwright-list' },
        ],
      ],
  use: {
    extraHTTPHeaders: {},
    ignoreHTTPSErrors: false,
    trace: 'off',
  },
  projects: areaProjects
    ? AREAS.filter((area) => existsSync(fromRoot('tests', area))).map((area) => ({
        name: area,
        testDir: `tests/${area}`,
      }))
    : [{ name: 'conformance', testDir: 'tests' }],
};

// The embedded reference sandbox (embedded-sandbox.ts), when no TARGET_BASE_URL is set.
if (sandboxEnv) config.webServer = embeddedSandboxServer(target.baseUrl, sandboxEnv);

export default defineConfig(config);
