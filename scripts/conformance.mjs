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
// --write-baseline[=path] is the runner's own option: the reporter writes the run's failures and
// warnings as a new baseline (default <reports>/baseline.yaml) for a person to review.
const WRITE_BASELINE = /^--write-baseline(?:=(.+))?$/;
const writeBaseline = process.argv.slice(2).find((a) => WRITE_BASELINE.test(a));
const args = process.argv.slice(2).filter((a) => !WRITE_BASELINE.test(a));
const env = {
  ...process.env,
  [NARROWED_ENV]: narrows(args) ? '1' : '0',
  // A shard (--shard=i/n) is a part of a whole run when nothing else narrows it: `npm run merge` joins the parts.
  OBG_RUN_NARROWED_BEYOND_SHARD: narrows(args.filter((a, i) => !/^--shard(=|$)/.test(a) && args[i - 1] !== '--shard'))
    ? '1'
    : '0',
  ...(writeBaseline
    ? { OBG_WRITE_BASELINE: resolve(WRITE_BASELINE.exec(writeBaseline)[1] ?? resolve(reports, 'baseline.yaml')) }
    : {}),
};

for (const part of [
  'allure-results',
  'allure-report',
  'conformance.json',
  'conformance.md',
  'specification.html',
  'junit.xml',
  'test-results',
  'summary.txt',
  'summary.json',
  'blob-report',
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

// OBG_ALLURE_HTML=0: the Allure results only, no HTML (about 2 s of CPU a run): the results are
// enough for CI and for `npm run certify`, which builds its own; the self-tests' child runs ask.
const allureHtml = process.env.OBG_ALLURE_HTML !== '0';
if (allureHtml && existsSync(resolve(reports, 'allure-results'))) {
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
  `reports: ${resolve(reports, 'conformance.md')}, ${allureHtml ? resolve(reports, 'allure-report', 'index.html') : `${resolve(reports, 'allure-results')} (no HTML: OBG_ALLURE_HTML=0)`}, ${resolve(reports, 'junit.xml')}`,
);
// How much of the specification the catalogue judges (harness/reporter/specification.ts).
const c = report.coverage;
if (c)
  console.log(
    `specification: ${c.judged} of ${c.normative} normative clauses judged (${c.judgedPercent} %), ${c.explained} explained, ` +
      `${c.notExplained.length} neither: ${c.judgedOrExplainedPercent} % judged or explained; map: ${resolve(reports, 'specification.html')}`,
  );
if (existsSync(resolve(reports, 'summary.txt')))
  console.log(`summary: ${readFileSync(resolve(reports, 'summary.txt'), 'utf8').trim()}`);
if (env.OBG_WRITE_BASELINE)
  console.log(
    `baseline: the run's failures and warnings were written to ${env.OBG_WRITE_BASELINE}: review every reason and expiry`,
  );
// With a baseline (BASELINE=path), known failures pass; a regression, an expired entry or a problem of the file fails.
const b = report.baseline;
if (b) {
  for (const p of b.problems) console.error(`baseline: ${p}`);
  for (const r of b.regressions) console.error(`baseline: regression: ${r.id} ${r.verdict} (not in the baseline)`);
  for (const e of b.expired) console.error(`baseline: expired: ${e.id} (expired ${e.expires})`);
  for (const id of b.fixed) console.log(`baseline: fixed: remove it from the baseline: ${id}`);
  console.log(
    `baseline: ${b.file}: ${b.exitCode === 0 ? `every failure is known (${b.known.length} known)` : 'the run fails'}`,
  );
  process.exit(b.exitCode);
}
process.exit(report.verdict === 'conformant' ? 0 : 1);
