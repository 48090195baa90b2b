import { mkdirSync, writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { loadCatalogue } from '../../fixtures/catalogue.js';
import { fromRoot } from '../../fixtures/config/paths.js';
import { loadProfile } from '../../fixtures/config/profile.js';
import { FAULTS } from '../../sandbox/faults/index.js';
import { startSandbox } from '../support/sandbox.js';
import { runSuite } from '../support/run-suite.js';

/**
 * The fault matrix: the suite against the sandbox with one fault on. The requirements the fault
 * names must come out failed (MUST) or warning (SHOULD); every other one must pass or be not claimed.
 */
const OUT = fromRoot('selftest', '.runs', 'matrix');
const only = process.env.SELFTEST_FAULTS?.split(',').filter(Boolean);

test.describe.configure({ mode: 'parallel' });

for (const fault of FAULTS.filter((f) => !only || only.includes(f.id))) {
  test(`fault ${fault.id} is caught`, async () => {
    test.setTimeout(300_000);
    const catalogue = loadCatalogue();
    for (const id of fault.breaks) expect(catalogue.byId.has(id), `fault ${fault.id} names unknown requirement ${id}`).toBe(true);
    const sandbox = await startSandbox({ faults: [fault.id], scaDelayMs: 600 });
    try {
      const run = await runSuite({
        name: `fault-${fault.id}`,
        baseUrl: sandbox.baseUrl,
        clientId: sandbox.clientId,
        clientSecret: sandbox.clientSecret,
        projects: fault.projects,
        workers: 4,
        timeoutMs: 280_000,
      });
      expect(run.report, `no conformance.json; output:\n${run.output.slice(-2000)}`).toBeDefined();
      const verdicts = new Map(run.report!.requirements.map((r) => [r.id, r]));
      const expected = fault.breaks.map((id) => ({ id, want: catalogue.byId.get(id)!.level === 'MUST' ? 'failed' : 'warning' }));
      const missed = expected.filter((e) => verdicts.get(e.id)?.verdict !== e.want).map((e) => `${e.id}: ${verdicts.get(e.id)?.verdict ?? 'absent'} (expected ${e.want})`);
      const stray = run.report!.requirements
        .filter((r) => !fault.breaks.includes(r.id) && r.verdict !== 'passed' && r.verdict !== 'skipped')
        .map((r) => `${r.id}: ${r.verdict} — ${(r.tests.find((t) => t.message)?.message ?? '').split('\n')[0].slice(0, 200)}`);
      const silent = fault.breaks.filter((id) => {
        const r = verdicts.get(id);
        return r && (r.verdict === 'failed' || r.verdict === 'warning') && !r.tests.some((t) => t.message.trim().length > 20);
      });
      mkdirSync(OUT, { recursive: true });
      writeFileSync(
        `${OUT}/${fault.id}.json`,
        JSON.stringify({ fault: fault.id, expected: fault.breaks, failed: [...verdicts.values()].filter((r) => r.verdict === 'failed' || r.verdict === 'warning').map((r) => r.id), missed, stray, seconds: Math.round(run.durationMs / 100) / 10 }),
      );
      expect(missed, `fault ${fault.id} (${fault.description}) was not caught by`).toEqual([]);
      expect(stray, `fault ${fault.id} made other requirements fail (stray failures)`).toEqual([]);
      expect(silent, 'failures must explain themselves').toEqual([]);
    } finally {
      await sandbox.close();
    }
  });
}

test('every MUST requirement the reference profile claims has a fault, or says why none can reach it', async () => {
  const claimed = new Set(loadProfile('reference').features);
  const covered = new Set(FAULTS.flatMap((f) => f.breaks));
  const uncovered = loadCatalogue()
    .all.filter((r) => r.level === 'MUST' && r.features.every((f) => claimed.has(f)) && !covered.has(r.id) && !r.noFault)
    .map((r) => r.id);
  expect(uncovered, 'MUST requirements no fault breaks (add a fault, or a noFault reason in the catalogue)').toEqual([]);
  const ids = FAULTS.map((f) => f.id);
  expect(ids.filter((id, i) => ids.indexOf(id) !== i), 'fault ids declared twice').toEqual([]);
});
