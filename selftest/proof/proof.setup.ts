import { mkdirSync, writeFileSync } from 'node:fs';
import { test } from '../support/test.js';
import { runDir } from '../support/run-dir.js';
import { proofScope, selectedCases } from './plan.js';
import { PROOF_RESULT, runProof } from './run.js';

test('the self-proof run: the suite against the sandbox with each fault and each variant on', async () => {
  test.setTimeout(2_700_000);
  const run = await runProof({
    cases: selectedCases(),
    outDir: runDir('proof', 'run'),
    scope: proofScope(),
    workers: Number(process.env.SELFTEST_PROOF_WORKERS || 10),
    scaDelayMs: 600,
    timeoutMs: 2_400_000,
  });
  mkdirSync(runDir('proof'), { recursive: true });
  writeFileSync(PROOF_RESULT, JSON.stringify(run, null, 1));
});
