#!/usr/bin/env node
// `npm test`: typecheck, then the self-tests (unit, green run, hostile targets, fault matrix),
// then the fault matrix table and a closing "N passed, N failed" line.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (n) => resolve(root, 'node_modules', '.bin', n);
const runs = resolve(root, 'selftest', '.runs');

console.log('selftest: typecheck');
const tsc = spawnSync(bin('tsc'), ['-p', 'tsconfig.json', '--noEmit'], { cwd: root, stdio: 'inherit' });
if (tsc.status !== 0) {
  console.log('selftest: 0 passed, 1 failed (typecheck)');
  process.exit(1);
}

rmSync(resolve(runs, 'matrix'), { recursive: true, force: true });
const env = { ...process.env };
for (const k of ['TARGET_BASE_URL', 'TARGET_AUTH_URL', 'CLIENT_ID', 'CLIENT_SECRET', 'ACCESS_TOKEN', 'TARGET_PROFILE', 'REPORTS_DIR']) delete env[k];
const pw = spawnSync(bin('playwright'), ['test', '-c', 'selftest/playwright.config.ts', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit', env });

const matrixDir = resolve(runs, 'matrix');
if (existsSync(matrixDir)) {
  const rows = readdirSync(matrixDir).map((f) => JSON.parse(readFileSync(resolve(matrixDir, f), 'utf8')));
  if (rows.length) {
    console.log('\nFault matrix');
    console.log('| fault | expected | failed | result | s |');
    console.log('|---|---|---|---|---|');
    for (const r of rows.sort((a, b) => a.fault.localeCompare(b.fault))) {
      const ok = r.missed.length === 0 && r.stray.length === 0;
      console.log(`| ${r.fault} | ${r.expected.join(', ')} | ${r.failed.join(', ')} | ${ok ? 'caught' : `MISSED ${r.missed.join('; ')} STRAY ${r.stray.join('; ')}`} | ${r.seconds} |`);
    }
    const caught = rows.filter((r) => r.missed.length === 0).length;
    const stray = rows.reduce((n, r) => n + r.stray.length, 0);
    const covered = new Set(rows.flatMap((r) => r.expected));
    console.log(`\nfaults: ${rows.length} run, ${caught} caught, ${stray} stray failures; requirements broken by a fault: ${covered.size}`);
  }
}

let passed = 0;
let failed = 0;
const resultsFile = resolve(runs, 'selftest-results.json');
if (existsSync(resultsFile)) {
  const stats = JSON.parse(readFileSync(resultsFile, 'utf8')).stats ?? {};
  passed = stats.expected ?? 0;
  failed = (stats.unexpected ?? 0) + (stats.flaky ?? 0);
}
if (pw.status !== 0 && failed === 0) failed = 1;
console.log(`\nselftest: ${passed} passed, ${failed} failed`);
process.exit(pw.status === 0 ? 0 : 1);
