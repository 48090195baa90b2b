import { mkdirSync, writeFileSync } from 'node:fs';
import { runDir } from '../support/run-dir.js';
import { sharedResult } from '../support/shared-result.js';
import { proofScope, selectedCases } from './plan.js';
import { PROOF_RESULT, runProof } from './run.js';

/**
 * The self-proof's run, made once per self-test run: `npm test` starts it in a process of its own
 * (start.ts) as soon as it starts, beside the typecheck and before Playwright has loaded the
 * self-tests (ten seconds or more on two busy cores); the proof-run project's test waits for it,
 * or makes it itself when `npm test` did not start it (a narrowed run).
 */
export const proofResult = (): Promise<void> => sharedResult(PROOF_RESULT, makeProof);

/** The run itself, its result written to PROOF_RESULT. */
export async function makeProof(): Promise<void> {
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
}
