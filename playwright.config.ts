import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig, type PlaywrightTestConfig } from '@playwright/test';
import { fromRoot } from './harness/config/paths.js';
import { prepareEmbeddedSandbox, resolveTarget } from './harness/config/target.js';
import { suiteInfo } from './harness/run-info.js';

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
const sandboxEnv = prepareEmbeddedSandbox();
const target = resolveTarget();
const reports = target.reportsDir;
const info = suiteInfo();
const requestAndSca = target.timeouts.requestMs * 4 + target.timeouts.scaMs;

// A whole run is ONE project, so that any worker runs any area's tests (a Playwright worker
// serves one project, and starting one costs about a second of CPU). `--project=<area>` still
// selects areas: then there is a project per area. Decided once in the runner and passed to the
// workers it starts (they read this file too).
process.env.OBG_AREA_PROJECTS ??= process.argv.some((a) => a === '--project' || a.startsWith('--project=')) ? '1' : '0';
const areaProjects = process.env.OBG_AREA_PROJECTS === '1';

const config: PlaywrightTestConfig = {
  testDir: 'tests',
  outputDir: join(reports, 'test-results'),
  fullyParallel: true,
  // A target that answers nothing usable is recognised once, before the tests (harness/probe.ts).
  globalSetup: fromRoot('harness/global-setup.ts'),
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Tests mostly wait on the target (SCA, polling): workers are sized for I/O, not CPU.
  workers: Number(process.env.OBG_WORKERS || 10),
  timeout: Math.max(60_000, requestAndSca),
  expect: { timeout: target.timeouts.scaMs },
  reporter: [
    // First: a failure whose worker was kept is a failure again for every reporter after it.
    [fromRoot('harness/reporter/outcome.ts')],
    [process.env.OBG_QUIET ? 'dot' : 'list'],
    ['junit', { outputFile: join(reports, 'junit.xml') }],
    // A shard (--shard=i/n) also writes Playwright's blob report, which `npm run merge` joins with the other shards'.
    ...(process.argv.some((a) => a === '--shard' || a.startsWith('--shard='))
      ? [['blob', { outputDir: join(reports, 'blob-report') }] as ['blob', { outputDir: string }]]
      : []),
    [
      'allure-playwright',
      {
        resultsDir: join(reports, 'allure-results'),
        detail: true,
        suiteTitle: true,
        environmentInfo: {
          target: target.baseUrl,
          profile: target.profileName,
          suite: `${info.name} ${info.version}`,
          commit: info.commit,
          spec_sha256: info.specSha256,
          node: process.version,
        },
      },
    ],
    [fromRoot('harness/reporter/conformance.ts')],
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

if (sandboxEnv) {
  config.webServer = {
    command: 'node --import tsx sandbox/server.ts',
    url: `${target.baseUrl}/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: { ...(process.env as Record<string, string>), ...(sandboxEnv as Record<string, string>) },
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 2_000 },
  };
}

export default defineConfig(config);
