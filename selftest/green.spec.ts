import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { loadCatalogue } from '../fixtures/catalogue.js';
import { loadProfile } from '../fixtures/config/profile.js';
import { startSandbox } from './support/sandbox.js';
import { runSuite } from './support/run-suite.js';
import { notPassed } from './support/verdicts.js';

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => {
    const f = join(dir, n);
    return statSync(f).isDirectory() ? files(f) : [f];
  });

const rounds = process.env.SELFTEST_LONG ? 5 : 1;

for (let round = 1; round <= rounds; round++) {
  test(`the whole suite is green against a fresh reference sandbox (round ${round} of ${rounds})`, async () => {
    test.setTimeout(600_000);
    const sandbox = await startSandbox();
    try {
      const run = await runSuite({ name: `green-${round}`, baseUrl: sandbox.baseUrl, clientId: sandbox.clientId, clientSecret: sandbox.clientSecret, workers: 6, timeoutMs: 540_000 });
      expect(run.report, `no conformance.json was written; output:\n${run.output.slice(-3000)}`).toBeDefined();
      const report = run.report!;
      expect(notPassed(report), 'every requirement the reference profile claims passes, and none is untested').toEqual([]);
      const claimed = new Set(loadProfile('reference').features);
      const applicable = loadCatalogue().all.filter((r) => r.features.every((f) => claimed.has(f)));
      const verdicts = new Map(report.requirements.map((r) => [r.id, r.verdict]));
      expect(applicable.filter((r) => verdicts.get(r.id) !== 'passed').map((r) => `${r.id}: ${verdicts.get(r.id) ?? 'absent'}`)).toEqual([]);
      expect(report.verdict).toBe('conformant');
      expect(run.exitCode).toBe(0);

      // No secret of the run reaches the reports: client secret, every token issued, PSU ids.
      const secrets = [sandbox.clientSecret, ...sandbox.app.sandbox.tokens.keys(), 'selftest-psu-0001', 'selftest-corp-0001'];
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
}
