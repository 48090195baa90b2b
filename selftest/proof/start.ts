// The self-proof's run in a process of its own, started by `npm test` (scripts/selftest.mjs) at
// once; the proof-run project's test waits for its result (proof-run.ts). The lock is taken before
// the run's modules load (the sandbox, its faults, the harness: seconds on a busy machine), so that
// this process, not the test that starts meanwhile, makes it.
import { runDir } from '../support/run-dir.js';
import { sharedResult } from '../support/shared-result.js';

sharedResult(runDir('proof', 'proof.json'), async () => (await import('./proof-run.js')).makeProof()).then(
  () => process.exit(0),
  (e: Error) => {
    console.error(`selftest: the self-proof's run failed: ${e.stack ?? e.message}`);
    process.exit(1);
  },
);
