import { FAULTS } from '../../sandbox/faults/index.js';
import { runDir } from './run-dir.js';
import { runSuite, type SuiteRun } from './run-suite.js';
import { startSandbox } from './sandbox.js';
import { sharedJson } from './shared-result.js';

/** The area of the run below, and of the shards that must merge to it. */
export const DIRECTORY = 'directory';

/** Every fault of the directory area that no feature claims: all on at once, several checks fail. */
export const DIRECTORY_FAULTS = FAULTS.filter((f) => f.id.startsWith(`${DIRECTORY}.`) && !f.claims).map((f) => f.id);

/** One worker: a failure keeps it (harness/test.ts), so the run starts one however many checks fail. */
export const DIRECTORY_FAULTS_WORKERS = 1;

/**
 * The directory area (`--project=directory`) against a sandbox with DIRECTORY_FAULTS on, with
 * DIRECTORY_FAULTS_WORKERS: one run judged by two self-tests, made by whichever asks first and
 * kept in this self-test run's folder (support/shared-result.ts). The reporters' test reads its
 * failures in each report (selftest/hostile/reporters.spec.ts); the shards' test merges two shards of
 * the same area against the same faults and compares them with it (selftest/cli/shards.spec.ts).
 */
export async function directoryFaultsRun(): Promise<SuiteRun> {
  return sharedJson(runDir('directory-faults.json'), async () => {
    const sandbox = await startSandbox({ faults: DIRECTORY_FAULTS });
    try {
      return await runSuite({
        name: 'directory-faults',
        ...sandbox,
        projects: [DIRECTORY],
        workers: DIRECTORY_FAULTS_WORKERS,
        timeoutMs: 170_000,
      });
    } finally {
      await sandbox.close();
    }
  });
}
