import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { fromRoot } from '../../harness/config/paths.js';
import type { ConformanceReport } from '../../harness/reporter/report.js';
import { disqualifications } from '../../harness/reporter/package.js';
import { runSuite } from '../support/run-suite.js';
import { runDir } from '../support/run-dir.js';
import { startSandbox } from '../support/sandbox.js';
import { DIRECTORY, directoryFaultsRun, DIRECTORY_FAULTS } from '../support/directory-faults.js';
import { ENV } from '../../harness/config/env-names.mjs';

/**
 * Sharded CI: one area run as 2 shards (in parallel) against one sandbox with its faults switched
 * on, merged by `npm run merge`, gives every requirement the verdict a single run of that area
 * against the same faults gives, and one exit code, one junit.xml and one Allure report. The area,
 * not the whole suite: the green run already pays for the whole suite once. The single run is the
 * one the reporters' test judges too (support/directory-faults.ts).
 */
const AREA = DIRECTORY;

test('two shards merge to the verdicts of a single run, requirement by requirement', async () => {
  test.setTimeout(300_000);
  const sandbox = await startSandbox({ faults: DIRECTORY_FAULTS });
  let shards: { report?: ConformanceReport; reportsDir: string; output: string }[];
  try {
    const common = {
      ...sandbox,
      projects: [AREA],
      // One worker a run: the area's checks are quick, and each worker costs its start-up.
      workers: 1,
    };
    shards = await Promise.all(
      [1, 2].map((i) =>
        runSuite({
          ...common,
          name: `shard-${i}`,
          args: [`--shard=${i}/2`],
          // As `npm run conformance -- --shard=i/2` says: only the shard narrows the run.
          env: { [ENV.runNarrowedBeyondShard]: '0' },
        }),
      ),
    );
  } finally {
    await sandbox.close();
  }
  const single = (await directoryFaultsRun()).report;
  for (const s of shards) {
    expect(s.report?.scope?.shard, s.output).toBeTruthy();
    expect(disqualifications(s.report!).join('\n')).toContain('merge the shards');
    expect(existsSync(join(s.reportsDir, 'blob-report')), 'a shard writes its blob report').toBe(true);
  }
  expect(single, 'the single run wrote its verdict').toBeDefined();

  const merged = runDir('shards-merged');
  rmSync(merged, { recursive: true, force: true });
  let code = 0;
  let output = '';
  try {
    const r = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', fromRoot('scripts', 'merge.ts'), ...shards.map((s) => s.reportsDir), `--out=${merged}`],
      { cwd: fromRoot(), env: { PATH: process.env.PATH, HOME: process.env.HOME }, timeout: 180_000 },
    );
    output = r.stdout + r.stderr;
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    code = e.code ?? -1;
    output = `${e.stdout ?? ''}${e.stderr ?? ''}`;
  }
  const report = JSON.parse(readFileSync(join(merged, 'conformance.json'), 'utf8')) as ConformanceReport;
  const verdicts = (r: ConformanceReport) => Object.fromEntries(r.requirements.map((q) => [q.id, q.verdict]));
  expect(verdicts(report)).toEqual(verdicts(single!));
  expect(report.verdict).toBe(single!.verdict);
  expect(report.verdict, 'the fault is caught in the merged run').toBe('not-conformant');
  expect(code, output).toBe(1);
  expect(report.scope).toEqual({ narrowed: false, projects: [AREA], shard: null });
  // How a requirement judged in several shards folds: selftest/unit/merge.spec.ts.
  expect(readFileSync(join(merged, 'junit.xml'), 'utf8')).toContain('<testsuites');
  expect(existsSync(join(merged, 'allure-report', 'index.html')), output).toBe(true);
  expect(readFileSync(join(merged, 'conformance.md'), 'utf8')).toContain('# Conformance report: NOT-CONFORMANT');
});
