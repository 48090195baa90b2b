import { mkdirSync, writeFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { loadCatalogue } from '../../harness/catalogue/catalogue.js';
import { loadProfile } from '../../harness/config/profile.js';
import { runDir } from '../support/run-dir.js';
import { proofCases } from '../proof/plan.js';

test('every MUST requirement the reference profile claims has a fault, or says why none can reach it', () => {
  const cases = proofCases();
  const catalogue = loadCatalogue();
  const claimed = new Set(loadProfile('reference').features);
  const covered = new Set(cases.flatMap((c) => c.breaks));
  const musts = catalogue.all.filter((r) => r.level === 'MUST' && r.features.every((f) => claimed.has(f)));
  const uncovered = musts.filter((r) => !covered.has(r.id) && !r.noFault).map((r) => r.id);
  // For the closing summary of `npm test`: how many MUSTs a fault reaches, and why the others cannot be.
  mkdirSync(runDir('proof'), { recursive: true });
  writeFileSync(
    runDir('proof', 'coverage.json'),
    JSON.stringify({
      mustClaimed: musts.length,
      mustWithFault: musts.filter((r) => covered.has(r.id)).length,
      noFault: musts.filter((r) => !covered.has(r.id) && r.noFault).map((r) => ({ id: r.id, reason: r.noFault })),
      uncovered,
    }),
  );
  expect(uncovered, 'MUST requirements no fault breaks (add a fault, or a noFault reason in the catalogue)').toEqual(
    [],
  );
  const ids = cases.map((c) => c.id);
  expect(
    ids.filter((id, i) => ids.indexOf(id) !== i),
    'fault and variant ids declared twice',
  ).toEqual([]);
  const unknown = cases.flatMap((c) =>
    [...c.breaks, ...c.warns, ...c.concerns].filter((id) => !catalogue.byId.has(id)).map((id) => `${c.id}: ${id}`),
  );
  expect(unknown, 'faults and variants naming requirements that are not in the catalogue').toEqual([]);
});
