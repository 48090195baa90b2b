import { readFileSync } from 'node:fs';
import type { ConformanceReport } from '../../harness/reporter/report.js';
import { runDir } from '../support/run-dir.js';

/**
 * The green run: the whole suite against a fresh reference sandbox, in the suite's order of tests
 * (as `obg-conformance run` dispatches them: scheduled). Once in `npm test`; five times in the long
 * mode (SELFTEST_LONG=1), where rounds 2 to 5 shuffle the order of files and tests with other seeds
 * (order dependence) and finalise SCA after other delays within the profile's claim (wall-clock luck).
 */
export const ROUNDS: { scaDelayMs: number; shuffle?: number }[] = process.env.SELFTEST_LONG
  ? [
      { scaDelayMs: 2000 },
      { scaDelayMs: 600, shuffle: 1 },
      { scaDelayMs: 3000, shuffle: 2 },
      { scaDelayMs: 1200, shuffle: 3 },
      { scaDelayMs: 2000, shuffle: 4 },
    ]
  : [{ scaDelayMs: 2000 }];

export const roundName = (n: number) => {
  const r = ROUNDS[n - 1];
  return `round ${n} of ${ROUNDS.length} (SCA after ${r.scaDelayMs} ms${r.shuffle ? `, shuffled, seed ${r.shuffle}` : ", the suite's order"})`;
};

/** What the setup saw of one round: the run, and the sandbox's state after it. */
export interface RoundResult {
  exitCode: number | null;
  output: string;
  report?: ConformanceReport;
  /** Consents still usable after the run: a test that created one did not delete it. */
  consentsLeft: string[];
  /** Payments left waiting for SCA, neither cancelled nor authorised. */
  paymentsWaiting: string[];
  /** Signing baskets left unauthorised and undeleted. */
  basketsLeft: string[];
  /** Secrets of the run (client secret, tokens, PSU ids) found in clear under the reports: file and a prefix. */
  leaks: string[];
  /** How many secrets were looked for (the client secret, every token issued, the PSU ids). */
  secretsLookedFor: number;
  /** pain.008 files the sandbox wrote, and their problems against the XSD and the totals confirmed. */
  files: number;
  fileProblems: string[];
}

export const roundFile = (n: number) => runDir('green', `round-${n}.json`);
export const readRound = (n: number) => JSON.parse(readFileSync(roundFile(n), 'utf8')) as RoundResult;
