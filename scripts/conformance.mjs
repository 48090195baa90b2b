#!/usr/bin/env node
// @ts-check
// The main job (`obg-conformance run`): run the suite against the target, build the Allure
// report, and exit with the verdict: 0 when conformant, 1 when a MUST failed or a check is broken
// or untested, 2 on a configuration error, 3 when the target is unavailable. Reports, .env and
// profiles are the working folder's; the suite's own files are this package's.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  listsOnly,
  packageFile,
  PLAYWRIGHT_LIST_OPTION,
  reportsDirOf,
  scheduled,
} from '../harness/config/run-options.mjs';
import { narrows } from './run-scope.mjs';
import { ENV } from '../harness/config/env-names.mjs';
import { ALLURE_OPTION, allureHtmlOf, buildAllureHtml } from './allure-html.mjs';
import { generatedOptionsOf } from './generated-options.mjs';
import { handedDown } from '../harness/config/user-settings.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const reports = reportsDirOf();
// A package's own file (its CLI), found where Node would resolve the package from the suite.
/**
 * @param {string} pkg
 * @param {string} file
 * @returns {string}
 */
const cli = (pkg, file) => {
  const found = packageFile(root, pkg, file);
  if (!found) {
    console.error(`conformance: the package ${pkg} is not installed beside the suite (npm install).`);
    process.exit(2);
  }
  return found;
};
// --write-baseline[=path] is the runner's own option: the reporter writes the run's failures and
// warnings as a new baseline (default <reports>/baseline.yaml) for a person to review.
const WRITE_BASELINE = /^--write-baseline(?:=(.+))?$/;
const writeBaseline = process.argv.slice(2).find((a) => WRITE_BASELINE.test(a));
// --seed <s> and --generated <depth>: the generated phase's (scripts/generated-options.mjs).
const generated = generatedOptionsOf(process.argv.slice(2));
if (generated.error !== undefined) {
  console.error(`conformance: ${generated.error}`);
  process.exit(2);
}
const args = generated.args.filter(
  (a) => !WRITE_BASELINE.test(a) && a !== ALLURE_OPTION && a !== PLAYWRIGHT_LIST_OPTION,
);
// The Allure HTML only when asked (--allure, ALLURE_HTML=on): the results are enough for CI,
// merge and certify; `obg-conformance report` builds the HTML from them afterwards.
const allure = allureHtmlOf(process.argv.slice(2));
if (allure.error) {
  console.error(`conformance: ${allure.error}`);
  process.exit(2);
}
/** @type {NodeJS.ProcessEnv} */
const env = {
  ...handedDown(),
  REPORTS_DIR: reports,
  ...generated.env,
  [ENV.runNarrowed]: narrows(args) ? '1' : '0',
  // A shard (--shard=i/n) is a part of a whole run when nothing else narrows it: `npm run merge` joins the parts.
  [ENV.runNarrowedBeyondShard]: narrows(args.filter((a, i) => !/^--shard(=|$)/.test(a) && args[i - 1] !== '--shard'))
    ? '1'
    : '0',
  // --playwright-list: Playwright's list of every test beside the suite's last lines (OBG_CONSOLE).
  ...(process.argv.slice(2).includes(PLAYWRIGHT_LIST_OPTION) ? { [ENV.console]: 'playwright-list' } : {}),
  ...(writeBaseline
    ? { [ENV.writeBaseline]: resolve(WRITE_BASELINE.exec(writeBaseline)?.[1] ?? resolve(reports, 'baseline.yaml')) }
    : {}),
};
/** @param {string[]} extra */
const playwright = (extra) =>
  spawnSync(
    process.execPath,
    [cli('@playwright/test', 'cli.js'), 'test', '-c', join(root, 'playwright.config.ts'), ...extra],
    {
      stdio: 'inherit',
      env,
    },
  );

// --list runs nothing: no report is removed, none written, no history record.
if (listsOnly(args)) process.exit(playwright(args).status ?? 2);

for (const part of [
  'allure-results',
  'allure-report',
  'allure-report.html',
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

const run = playwright(scheduled(args));
if (run.error) {
  console.error(`conformance: could not start Playwright: ${run.error.message}`);
  process.exit(2);
}

const summaryFile = resolve(reports, 'conformance.json');
if (!existsSync(summaryFile)) {
  // Playwright stopped before any test. A configuration error (status 2) has said which key or field.
  if (run.status !== 2)
    console.error('conformance: no verdict was written (the run stopped before the tests; see the message above).');
  process.exit(2);
}

// The Allure report, when asked: the served folder (allure-report/) and the same report as one
// file that opens from disk (allure-report.html), from one reading of the results.
if (allure.on && existsSync(resolve(reports, 'allure-results')))
  for (const problem of buildAllureHtml(reports, env)) console.error(`conformance: ${problem}`);

// The verdict, its counts, each failed MUST and each root cause were printed by the suite's
// console as the run ended (harness/reporter/console.ts); here: where the reports are.
/** @type {import('../harness/reporter/report.js').ConformanceReport} */
const report = JSON.parse(readFileSync(summaryFile, 'utf8'));
if (report.target?.draft)
  console.log(
    `
conformance: this profile is init's unreviewed draft (${report.target.profile}, "draft": true): review its claims, then remove "draft"`,
  );
console.log(
  `reports: ${resolve(reports, 'conformance.md')}, ` +
    (allure.on
      ? `${resolve(reports, 'allure-report.html')} (opens from disk), ${resolve(reports, 'allure-report', 'index.html')} (served), `
      : `${resolve(reports, 'allure-results')} (the Allure HTML: npm run report, or run with --allure), `) +
    `${resolve(reports, 'junit.xml')}`,
);
// How much of the specification the catalogue judges (harness/reporter/specification.ts).
const c = report.coverage;
if (c)
  console.log(
    `specification: ${c.judged} of ${c.normative} normative clauses judged (${c.judgedPercent} %${c.partly?.length ? `, ${c.partly.length} of them partly` : ''}), ${c.explained} explained, ` +
      `${c.notExplained.length} neither: ${c.judgedOrExplainedPercent} % judged or explained; map: ${resolve(reports, 'specification.html')}`,
  );
if (existsSync(resolve(reports, 'summary.txt')))
  console.log(`summary: ${readFileSync(resolve(reports, 'summary.txt'), 'utf8').trim()}`);
console.log(`generated: seed ${generated.seed} (obg-conformance run --seed ${generated.seed} replays its cases)`);
if (env[ENV.writeBaseline])
  console.log(
    `baseline: the run's failures and warnings were written to ${env[ENV.writeBaseline]}: review every reason and expiry`,
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
// Exit 3: the early probe found no usable API at the target (every check broken at once).
if ((report.errors ?? []).some((e) => e.startsWith('target unavailable'))) process.exit(3);
process.exit(report.verdict === 'conformant' ? 0 : 1);
