import { readFileSync } from 'node:fs';
import type { ConformanceReport } from '../../harness/reporter/report.js';
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

/**
 * What the strict run judges. The green run (selftest/green) judges every test over plain HTTP;
 * what the strict bank adds is the transport (TLS with a private CA, mutual TLS, a signature on
 * every call, an HTTPS proxy), which every kind of call meets in these files: every signing
 * check, the common header rules over every operation, tokens and the redirect SCA (oauth), a
 * second application (consents/refusals), decoupled and redirect authorisations, reads with a
 * consent, a payment authorised, a signing basket, a direct debit confirmed and its file. About a
 * fifth of the suite, every area. The long mode (SELFTEST_LONG=1) runs the whole suite.
 */
export const STRICT_SLICE: string[] | undefined = process.env.SELFTEST_LONG
  ? undefined
  : [
      'tests/directory/banks.spec.ts',
      'tests/headers/request-signing.spec.ts',
      'tests/headers/signing-mandated.spec.ts',
      'tests/headers/signing.spec.ts',
      'tests/headers/request-id.spec.ts',
      'tests/headers/common-rules.spec.ts',
      'tests/headers/authorization.spec.ts',
      'tests/oauth/token.spec.ts',
      'tests/oauth/authorize.spec.ts',
      'tests/oauth/redirect.spec.ts',
      'tests/consents/create.spec.ts',
      'tests/consents/refusals.spec.ts',
      'tests/authorisations/flow.spec.ts',
      'tests/authorisations/decoupled.spec.ts',
      'tests/accounts/accounts.spec.ts',
      'tests/accounts/transactions.spec.ts',
      'tests/payments/authorisation-flow.spec.ts',
      'tests/signing-baskets/baskets.spec.ts',
      'tests/direct-debit/confirm.spec.ts',
      'tests/direct-debit/file.spec.ts',
    ];

export const STRICT_FILE = () => runDir('strict-input', 'result.json');
export const readStrict = (): StrictResult => JSON.parse(readFileSync(STRICT_FILE(), 'utf8')) as StrictResult;
