import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileProblems } from '../support/pain008-files.js';
import { leaksUnder } from '../support/leaks.js';
import { runSuite } from '../support/run-suite.js';
import { startSandbox } from '../support/sandbox.js';
import { sharedResult } from '../support/shared-result.js';
import { ROUNDS, roundFile, type RoundResult } from './rounds.js';

/** A consent still usable after the run. */
const DONE = new Set(['terminatedByTpp', 'rejected', 'expired', 'revokedByPsu']);

/**
 * Round `n` of the green run, made once per self-test run (the green-run project starts it at
 * once; a judging test that comes first, or runs without that project, makes or waits for it).
 */
export const greenRound = (n: number): Promise<void> => sharedResult(roundFile(n), () => runGreenRound(n));

/** Round `n`: the whole suite against a fresh sandbox, and what the sandbox holds after it (roundFile). */
async function runGreenRound(n: number): Promise<void> {
  const round = ROUNDS[n - 1];
  const sandbox = await startSandbox({ scaDelayMs: round.scaDelayMs });
  try {
    const run = await runSuite({
      name: `green-${n}`,
      ...sandbox,
      // Three, not the default ten: the self-tests run beside it on the same two cores, and each
      // worker costs its start (two to three CPU seconds). The run ends well within the self-proof's.
      workers: 3,
      args: round.shuffle ? ['--shuffle', String(round.shuffle)] : [],
      timeoutMs: 840_000,
    });
    const state = sandbox.app.sandbox;
    const svc = state.payments;
    const secrets = [sandbox.clientSecret, ...state.tokens.keys(), 'selftest-psu-0001', 'selftest-corp-0001'];
    const leaks = leaksUnder(run.reportsDir, secrets);
    const pain008 = await fileProblems(sandbox.app);
    const result: RoundResult = {
      exitCode: run.exitCode,
      output: run.output.slice(-3000),
      report: run.report,
      consentsLeft: [...state.consents.values()]
        .filter((c) => !DONE.has(c.status))
        .map((c) => `${c.consentId.slice(0, 8)}… ${c.status}`),
      paymentsWaiting: [...svc.payments.values()]
        .filter((p) => svc.awaitingSca(p) && !p.cancellation)
        .map((p) => `${p.service}/${p.product} ${p.paymentId.slice(0, 8)}… ${p.status}`),
      basketsLeft: [...svc.baskets.values()]
        .filter((b) => b.status === 'RCVD')
        .map((b) => `${b.basketId.slice(0, 8)}… ${b.status}`),
      leaks,
      secretsLookedFor: secrets.length,
      files: pain008.files,
      fileProblems: pain008.problems,
    };
    mkdirSync(dirname(roundFile(n)), { recursive: true });
    // The secrets themselves (of this throw-away sandbox), for the self-tests that grep what is built
    // from the reports afterwards: the certification package (certify.spec.ts). Before the round's
    // file, whose presence says the round is over (sharedResult).
    writeFileSync(roundFile(n).replace(/round-(\d+)\.json$/, 'secrets-$1.json'), JSON.stringify(secrets));
    writeFileSync(roundFile(n), JSON.stringify(result));
  } finally {
    await sandbox.close();
  }
}
