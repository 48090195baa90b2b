import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { loadCatalogue } from '../harness/catalogue.js';
import { loadProfile } from '../harness/config/profile.js';
import { runDir } from './support/run-dir.js';
import { startSandbox } from './support/sandbox.js';
import { runSuite } from './support/run-suite.js';
import { notPassed } from './support/verdicts.js';

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => {
    const f = join(dir, n);
    return statSync(f).isDirectory() ? files(f) : [f];
  });

/**
 * The green run: against a fresh reference sandbox every claimed requirement passes. Once in
 * `npm test`; five times in the long mode (SELFTEST_LONG=1), where rounds 2 to 5 shuffle the
 * order of files and tests (order dependence) and finalise SCA after other delays within the
 * profile's claim (wall-clock luck), and every round must give every requirement the same verdict.
 */
const LONG = !!process.env.SELFTEST_LONG;
const ROUNDS = LONG
  ? [
      { scaDelayMs: 2000 },
      { scaDelayMs: 600, shuffle: 1 },
      { scaDelayMs: 3000, shuffle: 2 },
      { scaDelayMs: 1200, shuffle: 3 },
      { scaDelayMs: 2000, shuffle: 4 },
    ]
  : [{ scaDelayMs: 2000 }];
const OUT = runDir('green');

/** A consent still usable after the run: a test that created it did not delete it. */
const DONE = new Set(['terminatedByTpp', 'rejected', 'expired', 'revokedByPsu']);

test.describe('green run', () => {
  // In order, one round after the other: rounds in parallel would share two cores and measure the machine, not the suite.
  test.describe.configure({ mode: 'default' });

  ROUNDS.forEach((round, i) => {
    const n = i + 1;
    const how = `SCA after ${round.scaDelayMs} ms${round.shuffle ? `, shuffled (seed ${round.shuffle})` : ''}`;
    test(`the whole suite is green against a fresh reference sandbox (round ${n} of ${ROUNDS.length}: ${how})`, async () => {
      test.setTimeout(900_000);
      const sandbox = await startSandbox({ scaDelayMs: round.scaDelayMs });
      try {
        const run = await runSuite({
          name: `green-${n}`,
          baseUrl: sandbox.baseUrl,
          clientId: sandbox.clientId,
          clientSecret: sandbox.clientSecret,
          workers: 10,
          args: round.shuffle ? ['--shuffle', String(round.shuffle)] : [],
          timeoutMs: 840_000,
        });
        expect(run.report, `no conformance.json was written; output:\n${run.output.slice(-3000)}`).toBeDefined();
        const report = run.report!;
        mkdirSync(OUT, { recursive: true });
        writeFileSync(
          join(OUT, `round-${n}.json`),
          JSON.stringify(Object.fromEntries(report.requirements.map((r) => [r.id, r.verdict]))),
        );
        expect(
          notPassed(report),
          'every requirement the reference profile claims passes, and none is untested',
        ).toEqual([]);
        const claimed = new Set(loadProfile('reference').features);
        const applicable = loadCatalogue().all.filter((r) => r.features.every((f) => claimed.has(f)));
        const verdicts = new Map(report.requirements.map((r) => [r.id, r.verdict]));
        expect(
          applicable
            .filter((r) => verdicts.get(r.id) !== 'passed')
            .map((r) => `${r.id}: ${verdicts.get(r.id) ?? 'absent'}`),
        ).toEqual([]);
        expect(report.verdict).toBe('conformant');
        expect(run.exitCode).toBe(0);

        // Every test deletes what it created: no consent is left usable on the target.
        const left = [...sandbox.app.sandbox.consents.values()]
          .filter((c) => !DONE.has(c.status))
          .map((c) => `${c.consentId.slice(0, 8)}… ${c.status}`);
        expect(left, 'consents the run created and did not delete').toEqual([]);
        // Payments: cancelled (or their cancellation asked for) unless their SCA ran; baskets deleted
        // unless authorised. (Direct debit has no delete operation: section H creates, confirms, reads.)
        const svc = sandbox.app.sandbox.payments;
        const waiting = [...svc.payments.values()]
          .filter((p) => svc.awaitingSca(p) && !p.cancellation)
          .map((p) => `${p.service}/${p.product} ${p.paymentId.slice(0, 8)}… ${p.status}`);
        expect(
          waiting,
          'payments the run initiated and left waiting for SCA, neither cancelled nor authorised',
        ).toEqual([]);
        const baskets = [...svc.baskets.values()]
          .filter((b) => b.status === 'RCVD')
          .map((b) => `${b.basketId.slice(0, 8)}… ${b.status}`);
        expect(baskets, 'signing baskets the run created and did not delete').toEqual([]);

        // No secret of the run reaches the reports: client secret, every token issued, PSU ids.
        const secrets = [
          sandbox.clientSecret,
          ...sandbox.app.sandbox.tokens.keys(),
          'selftest-psu-0001',
          'selftest-corp-0001',
        ];
        expect(secrets.length).toBeGreaterThan(3);
        const leaks: string[] = [];
        for (const file of files(run.reportsDir)) {
          const text = readFileSync(file, 'latin1');
          for (const s of secrets) if (text.includes(s)) leaks.push(`${file}: ${s.slice(0, 6)}…`);
        }
        expect(leaks, 'secrets found in clear under the reports').toEqual([]);
      } finally {
        await sandbox.close();
      }
    });
  });

  if (ROUNDS.length > 1) {
    test('every round gives every requirement the same verdict', () => {
      const rounds = ROUNDS.map(
        (_, i) => JSON.parse(readFileSync(join(OUT, `round-${i + 1}.json`), 'utf8')) as Record<string, string>,
      );
      const ids = [...new Set(rounds.flatMap((r) => Object.keys(r)))].sort();
      const differ = ids
        .filter((id) => new Set(rounds.map((r) => r[id])).size > 1)
        .map((id) => `${id}: ${rounds.map((r) => r[id] ?? 'absent').join(' / ')}`);
      expect(
        differ,
        'requirements whose verdict changed between rounds (order, timing or leftover dependence)',
      ).toEqual([]);
    });
  }
});
