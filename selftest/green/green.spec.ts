import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { loadCatalogue } from '../../harness/catalogue/catalogue.js';
import { loadProfile } from '../../harness/config/profile.js';
import { notPassed } from '../support/verdicts.js';
import { greenRound } from './green-run.js';
import { readRound, ROUNDS, roundName } from './rounds.js';

/** The green run's result (green-run.ts), one property a test. */
test.beforeAll(async () => {
  test.setTimeout(900_000);
  for (let n = 1; n <= ROUNDS.length; n++) await greenRound(n);
});

ROUNDS.forEach((_, i) => {
  const n = i + 1;
  test.describe(roundName(n), () => {
    test('the run wrote its verdict', () => {
      const r = readRound(n);
      expect(r.report, `no conformance.json was written; output:\n${r.output}`).toBeDefined();
    });

    test('every requirement the reference profile claims passes, and none is untested', () => {
      const r = readRound(n);
      expect(notPassed(r.report!)).toEqual([]);
      const claimed = new Set(loadProfile('reference').features);
      const verdicts = new Map(r.report!.requirements.map((q) => [q.id, q.verdict]));
      const applicable = loadCatalogue().all.filter((q) => q.features.every((f) => claimed.has(f)));
      expect(
        applicable
          .filter((q) => verdicts.get(q.id) !== 'passed')
          .map((q) => `${q.id}: ${verdicts.get(q.id) ?? 'absent'}`),
      ).toEqual([]);
    });

    test('the verdict is conformant and the run exits 0', () => {
      const r = readRound(n);
      expect(r.report?.verdict).toBe('conformant');
      expect(r.exitCode, r.output).toBe(0);
    });

    test('no consent the run created is left usable', () => {
      expect(readRound(n).consentsLeft, 'consents the run created and did not delete').toEqual([]);
    });

    test('no payment is left waiting for SCA, neither cancelled nor authorised', () => {
      expect(readRound(n).paymentsWaiting).toEqual([]);
    });

    test('no signing basket is left unauthorised and undeleted', () => {
      expect(readRound(n).basketsLeft).toEqual([]);
    });

    test('no secret of the run appears in clear under the reports', () => {
      const r = readRound(n);
      expect(r.secretsLookedFor, 'the client secret, the tokens issued and the PSU ids').toBeGreaterThan(3);
      expect(r.leaks, 'secrets found in clear under the reports').toEqual([]);
    });

    test('every pain.008 file the sandbox wrote validates against the XSD and carries the totals confirmed', () => {
      const r = readRound(n);
      expect(r.files, 'the run confirmed collections, so files were written').toBeGreaterThan(3);
      expect(r.fileProblems).toEqual([]);
    });
  });
});

if (ROUNDS.length > 1) {
  test('every round gives every requirement the same verdict', () => {
    const rounds = ROUNDS.map((_, i) => new Map(readRound(i + 1).report!.requirements.map((q) => [q.id, q.verdict])));
    const ids = [...new Set(rounds.flatMap((r) => [...r.keys()]))].sort();
    const differ = ids
      .filter((id) => new Set(rounds.map((r) => r.get(id))).size > 1)
      .map((id) => `${id}: ${rounds.map((r) => r.get(id) ?? 'absent').join(' / ')}`);
    expect(differ, 'requirements whose verdict changed between rounds (order, timing or leftover dependence)').toEqual(
      [],
    );
  });
}
