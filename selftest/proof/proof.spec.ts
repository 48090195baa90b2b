import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { loadCatalogue } from '../../harness/catalogue/catalogue.js';
import { selectedCases } from './plan.js';
import { proofResult, type ProofRun } from './run.js';

/**
 * The self-proof, one test a case (the run is proof.setup.ts): a fault's requirements come out
 * failed (MUST) or warning (SHOULD) with messages that explain themselves, and nothing else
 * fails; a variant's run stays conformant.
 */
// In one worker, in order: each test only reads the run's result (once per worker), so more workers
// would only add their start (loading the plan and the catalogue).
test.describe.configure({ mode: 'default' });

// The run is proof.setup.ts's, made first in the same worker; run alone (`--grep`), these tests make it.
let run: ProofRun;
test.beforeAll(async () => {
  test.setTimeout(2_700_000);
  run = await proofResult();
});

const rowOf = (id: string) => {
  const row = run.rows.find((r) => r.id === id);
  if (!row) throw new Error(`the self-proof run has no row for ${id}`);
  return row;
};

for (const c of selectedCases()) {
  const what = c.kind === 'fault' ? 'is caught' : 'stays conformant';
  test(`${c.kind} ${c.id} (${c.description}) ${what}`, { annotation: { type: c.kind, description: c.id } }, () => {
    const catalogue = loadCatalogue();
    const named = [...c.breaks, ...c.warns, ...c.concerns];
    expect(
      named.filter((id) => !catalogue.byId.has(id)),
      `${c.kind} ${c.id} names requirements that are not in the catalogue`,
    ).toEqual([]);
    const row = rowOf(c.id);
    expect(row.missed, `fault ${c.id} (${c.description}) was not caught by`).toEqual([]);
    expect(row.stray, `${c.kind} ${c.id} made other requirements fail, warn or break (stray failures)`).toEqual([]);
    expect(row.silent, 'failures must explain themselves').toEqual([]);
  });
}
