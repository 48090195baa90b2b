import { fromRoot } from '../../harness/config/paths.js';

/**
 * A folder of this self-test run (selftest/.runs/r/<SELFTEST_RUN_ID>/...): runs started at the
 * same time in the same tree (several people, or a filtered run beside `npm test`) never share one.
 */
export const runDir = (...parts: string[]): string =>
  fromRoot('selftest', '.runs', 'r', process.env.SELFTEST_RUN_ID || 'adhoc', ...parts);
