import { readFileSync } from 'node:fs';
import type { ConformanceReport } from '../../harness/reporter/conformance.js';
import { runDir } from '../support/run-dir.js';

/** What the strict run's setup saw (selftest/strict/strict.setup.ts). */
export interface StrictResult {
  exitCode: number | null;
  output: string;
  durationMs: number;
  report?: ConformanceReport;
  /** Requests the sandbox served, and those of them that did not come through the proxy's tunnels. */
  requests: number;
  notThroughProxy: number;
  /** Key material, passphrases or signature values found in clear under the reports: file and what. */
  leaks: string[];
}

export const STRICT_FILE = () => runDir('strict-input', 'result.json');
export const readStrict = (): StrictResult => JSON.parse(readFileSync(STRICT_FILE(), 'utf8')) as StrictResult;
