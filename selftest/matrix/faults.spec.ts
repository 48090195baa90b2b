import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { loadCatalogue } from '../../harness/catalogue.js';
import { loadProfile } from '../../harness/config/profile.js';
import type { Fault } from '../../sandbox/faults/fault.js';
import { FAULTS } from '../../sandbox/faults/index.js';
import { runMatrix } from '../support/run-matrix.js';
import { runSuite } from '../support/run-suite.js';
import { runDir } from '../support/run-dir.js';
import { startSandbox } from '../support/sandbox.js';
import { judgeFault, type FaultRow } from './judge.js';

/**
 * The fault matrix: the suite against the sandbox with one fault on, for every fault. The
 * requirements a fault names must come out failed (MUST) or warning (SHOULD); every other one
 * must pass or be not claimed. All faults run in ONE child Playwright run with one project (a
 * sandbox per fault, a folder of wrapper specs per fault), so the runner and its workers start
 * once and every worker runs every fault's tests.
 * SELFTEST_MATRIX=per-fault runs one child Playwright per fault instead (the old way, to compare).
 */
const OUT = runDir('matrix');
const TABLE = `${OUT}/table.json`;
const only = process.env.SELFTEST_FAULTS?.split(',').filter(Boolean);
const faults = FAULTS.filter((f) => !only || only.includes(f.id));
const perFault = process.env.SELFTEST_MATRIX === 'per-fault';
const runId = process.env.SELFTEST_RUN_ID ?? 'adhoc';
// Every test of a fault's areas in the long mode (or SELFTEST_MATRIX_SCOPE=areas); the spec files that check what it breaks otherwise.
const scope = process.env.SELFTEST_LONG || process.env.SELFTEST_MATRIX_SCOPE === 'areas' ? 'areas' : 'files';

interface Table {
  runId: string;
  mode: string;
  scope: string;
  seconds: number;
  workers: number;
  /** CPU seconds this process spent meanwhile: the faults' sandboxes and the front that routes to them. */
  sandboxCpuSeconds: number;
  rows: FaultRow[];
}

/** Runs the matrix once per self-test run: a worker restarted after a failed fault reads the saved table. */
async function matrixTable(): Promise<Table> {
  if (existsSync(TABLE)) {
    const saved = JSON.parse(readFileSync(TABLE, 'utf8')) as Table;
    if (saved.runId === runId && saved.rows.length === faults.length) return saved;
  }
  const catalogue = loadCatalogue();
  const workers = Number(process.env.SELFTEST_MATRIX_WORKERS || 10);
  const started = Date.now();
  const cpu = process.cpuUsage();
  let rows: FaultRow[];
  if (perFault) rows = await perFaultRows(faults, workers);
  else {
    const run = await runMatrix({ faults, outDir: `${OUT}/run`, workers, timeoutMs: 2_400_000, scope });
    rows = faults.map((f) => {
      const v = run.verdicts.get(f.id);
      return judgeFault(
        f,
        v?.requirements ?? [],
        catalogue,
        v ? Math.round((v.to - v.from) * 10) / 10 : 0,
        v ? v.error : `no verdicts (exit ${run.exitCode}); output:\n${run.output.slice(-1500)}`,
      );
    });
  }
  const used = process.cpuUsage(cpu);
  const table: Table = {
    runId,
    mode: perFault ? 'per-fault' : 'one-run',
    scope: perFault ? 'areas' : scope,
    seconds: Math.round((Date.now() - started) / 100) / 10,
    workers,
    sandboxCpuSeconds: Math.round((used.user + used.system) / 100_000) / 10,
    rows,
  };
  mkdirSync(OUT, { recursive: true });
  writeFileSync(TABLE, JSON.stringify(table, null, 2));
  return table;
}

/** The old way: one child Playwright per fault, `workers` of them at once. */
async function perFaultRows(list: Fault[], workers: number): Promise<FaultRow[]> {
  const catalogue = loadCatalogue();
  const rows: FaultRow[] = [];
  const queue = [...list];
  const one = async () => {
    for (let f = queue.shift(); f; f = queue.shift()) {
      const sandbox = await startSandbox({ faults: [f.id], scaDelayMs: 600 });
      try {
        const run = await runSuite({
          name: `fault-${f.id}`,
          baseUrl: sandbox.baseUrl,
          clientId: sandbox.clientId,
          clientSecret: sandbox.clientSecret,
          projects: f.projects,
          workers: 4,
          timeoutMs: 280_000,
        });
        rows.push(
          judgeFault(
            f,
            run.report?.requirements ?? [],
            catalogue,
            Math.round(run.durationMs / 100) / 10,
            run.report ? undefined : `no conformance.json; output:\n${run.output.slice(-1500)}`,
          ),
        );
      } finally {
        await sandbox.close();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.floor(workers / 2)) }, one));
  return list.map((f) => rows.find((r) => r.fault === f.id)!);
}

test.describe('fault matrix', () => {
  // In order, in one worker: the matrix runs once (before the first fault), each test reads its row.
  test.describe.configure({ mode: 'default' });
  let table: Table;
  test.beforeAll(async ({}, info) => {
    info.setTimeout(2_500_000);
    table = await matrixTable();
  });

  for (const fault of faults) {
    test(`fault ${fault.id} is caught`, () => {
      const catalogue = loadCatalogue();
      for (const id of fault.breaks)
        expect(catalogue.byId.has(id), `fault ${fault.id} names unknown requirement ${id}`).toBe(true);
      const row = table.rows.find((r) => r.fault === fault.id)!;
      expect(row.missed, `fault ${fault.id} (${fault.description}) was not caught by`).toEqual([]);
      expect(row.stray, `fault ${fault.id} made other requirements fail (stray failures)`).toEqual([]);
      expect(row.silent, 'failures must explain themselves').toEqual([]);
    });
  }
});

test('every MUST requirement the reference profile claims has a fault, or says why none can reach it', async () => {
  const claimed = new Set(loadProfile('reference').features);
  const covered = new Set(FAULTS.flatMap((f) => f.breaks));
  const musts = loadCatalogue().all.filter((r) => r.level === 'MUST' && r.features.every((f) => claimed.has(f)));
  const uncovered = musts.filter((r) => !covered.has(r.id) && !r.noFault).map((r) => r.id);
  // For the closing summary of `npm test`: how many MUSTs a fault reaches, and why the others cannot be.
  mkdirSync(OUT, { recursive: true });
  writeFileSync(
    `${OUT}/coverage.json`,
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
  const ids = FAULTS.map((f) => f.id);
  expect(
    ids.filter((id, i) => ids.indexOf(id) !== i),
    'fault ids declared twice',
  ).toEqual([]);
  const unknown = FAULTS.flatMap((f) =>
    f.breaks.filter((id) => !loadCatalogue().byId.has(id)).map((id) => `${f.id}: ${id}`),
  );
  expect(unknown, 'faults naming requirements that are not in the catalogue').toEqual([]);
});
