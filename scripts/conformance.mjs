#!/usr/bin/env node
// The main job: run the suite against the target, build the Allure report, and exit with the
// verdict: 0 when conformant, 1 when a MUST failed or a check is broken or untested.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NARROWED_ENV, narrows } from './run-scope.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const reports = resolve(root, process.env.REPORTS_DIR || 'reports');
const bin = (name) => resolve(root, 'node_modules', '.bin', name);
const args = process.argv.slice(2);
const env = { ...process.env, [NARROWED_ENV]: narrows(args) ? '1' : '0' };

for (const part of [
  'allure-results',
  'allure-report',
  'conformance.json',
  'conformance.md',
  'junit.xml',
  'test-results',
]) {
  rmSync(resolve(reports, part), { recursive: true, force: true });
}

const run = spawnSync(bin('playwright'), ['test', ...args], { cwd: root, stdio: 'inherit', env });
if (run.error) {
  console.error(`conformance: could not start Playwright: ${run.error.message}`);
  process.exit(2);
}

const summaryFile = resolve(reports, 'conformance.json');
if (!existsSync(summaryFile)) {
  // Playwright stopped before any test (a bad setting or profile): its message says which.
  console.error('conformance: no verdict was written (the run stopped before the tests; see the message above).');
  process.exit(run.status || 2);
}

if (existsSync(resolve(reports, 'allure-results'))) {
  const allure = spawnSync(
    bin('allure'),
    ['generate', resolve(reports, 'allure-results'), '-o', resolve(reports, 'allure-report')],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
      env: { ...process.env, REPORTS_DIR: reports },
    },
  );
  if (allure.status !== 0)
    console.error(`conformance: the Allure report could not be built:\n${allure.stderr || allure.stdout}`);
}

const report = JSON.parse(readFileSync(summaryFile, 'utf8'));
const t = report.totals;
for (const e of report.errors ?? []) console.error(`conformance: ${e.split('\n')[0]}`);
console.log(
  `\nconformance: ${report.verdict.toUpperCase()} — requirements: ${t.passed} passed, ${t.failed} failed, ${t.warning} warning, ` +
    `${t.broken} broken, ${t.blocked ?? 0} blocked, ${t.skipped} not claimed, ${t.untested} untested`,
);
console.log(
  `reports: ${resolve(reports, 'conformance.md')}, ${resolve(reports, 'allure-report', 'index.html')}, ${resolve(reports, 'junit.xml')}`,
);
process.exit(report.verdict === 'conformant' ? 0 : 1);
