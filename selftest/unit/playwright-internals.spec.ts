import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Expect } from '@playwright/test';
import { test } from '../support/test.js';
import { PLAIN } from '../../harness/playwright-internals/quiet-expect.js';
import { allureRuntimeOf } from '../../harness/playwright-internals/allure-runtime.js';
import ConformanceAllureReporter from '../../harness/reporter/allure.js';
import type { CanaryResult } from '../support/playwright-canary/recorder.js';
import { runPlaywright, type ChildRun } from '../support/run-suite.js';
import { runDir } from '../support/run-dir.js';

/**
 * The canaries of Playwright's internals (docs/playwright-internals.md): one test per private API
 * or behaviour the harness relies on (harness/playwright-internals/), each failing with what
 * changed and what it costs, so that a Playwright upgrade fails a named test here instead of
 * silently slowing the runs or changing verdicts. The behaviours are read from one small child run
 * of the canary tests (selftest/support/playwright-canary/).
 */
const WHAT = 'docs/playwright-internals.md';

let canary: Promise<{ run: ChildRun; results: CanaryResult[]; groups: number }> | undefined;
const canaryRun = () =>
  (canary ??= (async () => {
    const dir = runDir('playwright-canary');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const run = await runPlaywright(['-c', 'selftest/support/playwright-canary/canary.config.ts'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, CANARY_DIR: dir },
      timeoutMs: 60_000,
    });
    const file = join(dir, 'results.json');
    const results = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as CanaryResult[]) : [];
    const groupsFile = join(dir, 'groups.txt');
    const groups = existsSync(groupsFile) ? readFileSync(groupsFile, 'utf8').split('\n').filter(Boolean).length : 0;
    return { run, results, groups };
  })());

const resultOf = async (title: string) => {
  const { run, results } = await canaryRun();
  const r = results.find((x) => x.title === title);
  expect(r, `the canary run has no result for "${title}":\n${run.output.slice(-3000)}`).toBeDefined();
  return r!;
};

test('Playwright internal: BROWSERLESS replaces the automatic browser fixtures _setupArtifacts and _setupContextOptions', async () => {
  const full = await resultOf('with the browser fixtures');
  const browserless = await resultOf('browserless');
  const apiSteps = (r: CanaryResult) => r.steps.filter((s) => s.startsWith('pw:api: '));
  const timeout = (r: CanaryResult) => r.notes.find((n) => n.startsWith('context-timeout='));
  // What Playwright's own fixtures do, seen: else the canary below would prove nothing.
  expect(apiSteps(full), `_setupArtifacts no longer makes an API call a step (${WHAT})`).toEqual([
    'pw:api: Create request context',
  ]);
  expect(timeout(full), `_setupContextOptions no longer hands the action timeout to contexts (${WHAT})`).toBe(
    'context-timeout=4321',
  );
  const renamed = `Playwright renamed _setupArtifacts or _setupContextOptions (playwright/lib/index.js): harness/playwright-internals/browserless.ts replaces nothing, and every test pays the browser fixtures' steps again (${WHAT})`;
  expect(apiSteps(browserless), renamed).toEqual([]);
  expect(timeout(browserless), renamed).toBe('context-timeout=undefined');
});

test('Playwright internal: a failure made expected in its worker keeps the worker, and the first reporter makes it a failure again', async () => {
  const failed = await resultOf('kept: fails');
  const passed = await resultOf('kept: expected to fail, passes');
  const after = await resultOf('kept: after them');
  const why = `harness/playwright-internals/kept-worker.ts (${WHAT})`;
  expect(failed.annotations, `the failure was not annotated kept: ${why}`).toContain('kept-worker');
  expect(
    [failed.status, failed.expectedStatus, failed.outcome],
    `the failed test, as the reporters after the outcome reporter see it: ${why}`,
  ).toEqual(['failed', 'passed', 'unexpected']);
  expect(
    [passed.status, passed.expectedStatus, passed.outcome],
    `a test expected to fail that passed is an expected pass: ${why}`,
  ).toEqual(['passed', 'passed', 'expected']);
  expect(
    [passed.workerIndex, after.workerIndex],
    `Playwright started a new worker after a failure made expected in the worker: every failed check now costs a worker start (${why})`,
  ).toEqual([failed.workerIndex, failed.workerIndex]);
  const { run } = await canaryRun();
  expect(run.exitCode, `the run's exit code no longer counts a kept failure: ${why}`).toBe(1);
});

test('Playwright internal: a beforeAll in a fully parallel file dispatches its tests in at most one group per worker', async () => {
  const { results, groups } = await canaryRun();
  expect(results.filter((r) => r.title.startsWith('grouped ')).length, 'the grouped canary tests ran').toBe(8);
  expect(
    groups,
    `the 8 tests of a file with a beforeAll ran in ${groups} groups on 2 workers: Playwright no longer groups a parallel file's tests by its hooks, and the self-proof's workers bind its largest files once per test again (harness/playwright-internals/one-group-per-worker.ts, ${WHAT})`,
  ).toBeLessThanOrEqual(2);
  expect(groups, 'the grouping hook ran').toBeGreaterThanOrEqual(1);
});

test("Playwright internal: every built-in matcher the quiet expect decides is still one of Playwright's, with .not and .soft", () => {
  const m = expect(1) as unknown as Record<string, unknown> & { not: Record<string, unknown> };
  const soft = (expect as Expect).soft(1) as unknown as Record<string, unknown>;
  for (const name of Object.keys(PLAIN)) {
    expect(
      [typeof m[name], typeof m.not[name], typeof soft[name]],
      `Playwright's expect has no ${name} any more: harness/playwright-internals/quiet-expect.ts decides it in its place (${WHAT}); its agreement with Playwright is selftest/unit/quiet-expect.spec.ts`,
    ).toEqual(['function', 'function', 'function']);
  }
});

test('allure-playwright internal: its reporter keeps its results writer at allureRuntime.writer, which ours replaces', () => {
  const dir = join(tmpdir(), `obg-allure-canary-${process.pid}`);
  const reporter = new ConformanceAllureReporter({ resultsDir: dir } as never);
  reporter.onBegin({ allTests: () => [], suites: [], entries: () => [] } as never);
  const runtime = allureRuntimeOf<object>(reporter);
  expect(
    runtime?.writer.constructor.name,
    `allure-playwright keeps no allureRuntime.writer: every result is written with an fsync again (harness/reporter/allure.ts, ${WHAT})`,
  ).toBe('ResultsWriter');
  rmSync(dir, { recursive: true, force: true });
});

test('allure-playwright internal: a failed hook step is a global error through emitGlobalErrorFromHookStep, which leaves skips out', () => {
  const dir = join(tmpdir(), `obg-allure-canary-hooks-${process.pid}`);
  const reporter = new ConformanceAllureReporter({ resultsDir: dir } as never);
  reporter.onBegin({ allTests: () => [], suites: [], entries: () => [] } as never);
  const runtime = (reporter as unknown as { allureRuntime: { applyGlobalRuntimeMessages: (m: unknown[]) => void } })
    .allureRuntime;
  const globals: unknown[] = [];
  runtime.applyGlobalRuntimeMessages = (m) => globals.push(...m);
  const emit = (message: string) =>
    (reporter as unknown as { emitGlobalErrorFromHookStep: (s: unknown) => void }).emitGlobalErrorFromHookStep({
      title: 'Before Hooks',
      category: 'hook',
      startTime: new Date(),
      error: { message },
    });
  emit('Test is skipped: not claimed: the profile "p" does not claim x');
  expect(globals, 'a skip in a beforeEach is no global error').toEqual([]);
  emit('Error: the hook broke');
  expect(
    globals.length,
    `allure-playwright no longer reports a failed hook through emitGlobalErrorFromHookStep: skips raised in a beforeEach may be global errors again (harness/playwright-internals/allure-runtime.ts, ${WHAT})`,
  ).toBe(1);
  rmSync(dir, { recursive: true, force: true });
});
