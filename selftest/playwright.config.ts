import { defineConfig } from '@playwright/test';

// One id per self-test run (set here, in the runner, before workers start): every file of the run
// goes under selftest/.runs/r/<id>.
process.env.SELFTEST_RUN_ID ||= `${Date.now()}-${process.pid}`;

/**
 * The suite's own tests (`npm test`). Three runs of the suite start first, each judged by many
 * small tests once it has ended: the self-proof (proof/), the green run (green/) and the strict run
 * (strict/). The unit tests, the hostile targets and the rest run beside them.
 */
export default defineConfig({
  testDir: '.',
  // The runs' own files are not self-tests.
  testIgnore: ['**/.runs/**'],
  outputDir: `.runs/r/${process.env.SELFTEST_RUN_ID}/test-results`,
  fullyParallel: true,
  workers: Number(process.env.SELFTEST_WORKERS || 3),
  retries: 0,
  timeout: 300_000,
  reporter: [['list'], ['json', { outputFile: `.runs/r/${process.env.SELFTEST_RUN_ID}/selftest-results.json` }]],
  // The three long runs first, so that they start at once and the rest fills in beside them. The
  // green and strict judging tests come last and declare no dependency: Playwright starts a
  // dependent project only when every project of the phase before has ended (the self-proof, seven
  // minutes), so they would run after it, at the end. Dispatched last, they find their run long
  // over (or wait for it, or make it when run alone: support/shared-result.ts). The self-proof's
  // judging tests are its run's project: the one worker runs them once the run has ended.
  //
  // Every project has one worker at most (`workers: 1`; the three runs are one test each): a worker
  // serves one project and its start costs two to three CPU seconds (Playwright, the files and what
  // they import), and a project spread over two slots paid it twice for tests that mostly wait on
  // child runs. The projects still run side by side, as many as there are workers.
  projects: [
    // The self-proof's run and, in the same worker once it has ended, its 405 judging tests.
    { name: 'proof', testMatch: ['proof/proof.setup.ts', 'proof/proof.spec.ts'] },
    { name: 'green-run', testMatch: 'green/green.setup.ts' },
    { name: 'strict-run', testMatch: 'strict/strict.setup.ts' },
    // The tests that make small runs of their own, in one project (one worker start for all of
    // them; they mostly wait on their runs): the hostile targets, polite to a shared, rate-limited
    // sandbox (profile limits), the PSU agents (sca.psuAgent browser and manual, each through one
    // redirect SCA of the suite), baselines and shards (selftest/cli/), and the packed tarball
    // installed into an empty folder and run there (selftest/package/: the longest, ten minutes),
    // and the unit tests with a narrowed run on the Node 22 and 24 builds (selftest/runtimes/).
    {
      name: 'runs',
      testMatch: [
        'hostile/**/*.spec.ts',
        'polite/**/*.spec.ts',
        'agents/**/*.spec.ts',
        'cli/**/*.spec.ts',
        'package/**/*.spec.ts',
        'runtimes/**/*.spec.ts',
      ],
      timeout: 600_000,
    },
    { name: 'unit', testMatch: ['unit/**/*.spec.ts', 'strict/*.unit.spec.ts'], timeout: 60_000 },
    // The green and the strict runs judged, in one project (one worker start).
    { name: 'green', testMatch: ['green/**/*.spec.ts', 'strict/strict.spec.ts'] },
  ].map((project) => ({ ...project, workers: 1 })),
});
