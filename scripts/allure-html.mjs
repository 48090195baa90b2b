// @ts-check
// The Allure HTML report, built from a run's Allure results only when asked: `obg-conformance run
// --allure` (or ALLURE_HTML=on), or afterwards `obg-conformance report` on the last run's results.
// A run without it writes the results (allure-results/), which is all CI, `merge` and `certify`
// need; the HTML is a reader's view of them and costs as much CPU as a third of the run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageFile, reportsDirOf } from '../harness/config/run-options.mjs';
import { ENV } from '../harness/config/env-names.mjs';
import { envFileOf, handedDown, internal, loadSettings, switchValue } from '../harness/config/user-settings.mjs';
import { makeOffline } from '../harness/reporter/offline-html.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The runner's own option that asks for the Allure HTML. */
export const ALLURE_OPTION = '--allure';

/**
 * Whether the run builds the Allure HTML: `--allure` on the command line, else ALLURE_HTML
 * (environment, else .env: on/off, 1/0, true/false; default off). { on } or { error } naming the key.
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} [env] the process's environment unless given
 * @param {string} [cwd]
 * @returns {{ on?: boolean, error?: string }}
 */
export function allureHtmlOf(args, env, cwd = process.cwd()) {
  if (args.includes(ALLURE_OPTION)) return { on: true };
  const raw = loadSettings(env, envFileOf(cwd)).ALLURE_HTML;
  const on = switchValue(raw);
  if (on !== undefined) return { on };
  return { error: `ALLURE_HTML: "${raw}" is neither on nor off (default off; --allure asks for the HTML once).` };
}

/** The file naming the last run whose results went into Allure's history (beside allure-history.jsonl). */
const HISTORY_MARK = join('history', 'allure-history.last-run');

/**
 * The run whose results lie in <reports> (conformance.json's start and end), or undefined.
 * @param {string} reports
 */
function runOf(reports) {
  try {
    const r = JSON.parse(readFileSync(resolve(reports, 'conformance.json'), 'utf8'));
    return r.startedAt && r.finishedAt ? `${r.startedAt} ${r.finishedAt}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Builds <reports>/allure-report/ (served) and <reports>/allure-report.html (one file that opens
 * from disk) from <reports>/allure-results, both from one reading of the results. Returns the
 * problems (empty when both were built).
 * @param {string} reports
 * @param {NodeJS.ProcessEnv} [env] the process's environment unless given
 * @returns {string[]}
 */
export function buildAllureHtml(reports, env) {
  const results = resolve(reports, 'allure-results');
  if (!existsSync(results)) return [`no Allure results at ${results} (run the suite first)`];
  const cli = packageFile(root, 'allure', 'cli.js');
  if (!cli) return ['the package allure is not installed beside the suite (npm install)'];
  for (const part of ['allure-report', 'allure-report.html'])
    rmSync(resolve(reports, part), { recursive: true, force: true });
  const out = mkdtempSync(join(reports, '.allure-build-'));
  // A report built again from the same run reads the history without adding the run to it again.
  const run = runOf(reports);
  const mark = resolve(reports, HISTORY_MARK);
  const again = !!run && existsSync(mark) && readFileSync(mark, 'utf8').trim() === run;
  const built = spawnSync(process.execPath, [cli, 'generate', results, '-c', join(root, 'allurerc.mjs'), '-o', out], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    env: {
      ...handedDown(loadSettings(env), env),
      REPORTS_DIR: reports,
      [ENV.allureBoth]: '1',
      [ENV.allureOutput]: out,
      ...(again ? { [ENV.allureAppendHistory]: '0' } : {}),
    },
  });
  if (built.status === 0 && run && !again && internal('allureAppendHistory', env) !== '0') {
    mkdirSync(dirname(mark), { recursive: true });
    writeFileSync(mark, `${run}\n`);
  }
  const problems = [];
  if (built.status === 0 && existsSync(join(out, 'awesome', 'index.html'))) {
    renameSync(join(out, 'awesome'), resolve(reports, 'allure-report'));
    // The test results' index lies beside the reports when there are two: it goes with the served one.
    if (existsSync(join(out, 'test-results.json')))
      renameSync(join(out, 'test-results.json'), resolve(reports, 'allure-report', 'test-results.json'));
  } else problems.push(`the Allure report could not be built:\n${built.stderr || built.stdout}`);
  if (built.status === 0 && existsSync(join(out, 'single', 'index.html')))
    renameSync(join(out, 'single', 'index.html'), resolve(reports, 'allure-report.html'));
  else problems.push(`the single-file Allure report could not be built:\n${built.stderr || built.stdout}`);
  rmSync(out, { recursive: true, force: true });
  // No analytics and no outside address in what Allure built (harness/reporter/offline-html.mjs).
  for (const part of ['allure-report', 'allure-report.html']) makeOffline(resolve(reports, part));
  return problems;
}

// `obg-conformance report [folder]`: the Allure HTML of the run in <folder>, else the last run under REPORTS_DIR.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const reports = process.argv[2] ? resolve(process.argv[2]) : reportsDirOf();
  const problems = buildAllureHtml(reports);
  for (const p of problems) console.error(`report: ${p}`);
  if (problems.length) process.exit(2);
  console.log(
    `report: ${resolve(reports, 'allure-report.html')} (opens from disk), ${resolve(reports, 'allure-report', 'index.html')} (served)`,
  );
}
