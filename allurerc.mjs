// @ts-check
// Allure 3 configuration for `allure generate` (run by `npm run conformance`).
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { reportsDirOf } from './harness/config/run-options.mjs';
import { internal } from './harness/config/user-settings.mjs';

// The command that runs `allure generate` hands down its settings (REPORTS_DIR among them).
const reports = reportsDirOf();
const summaryFile = resolve(reports, 'conformance.json');
const summary = existsSync(summaryFile) ? JSON.parse(readFileSync(summaryFile, 'utf8')) : undefined;

// The verdict first: the report's name (Allure's title and header) is the run's verdict and the
// requirements' counts, as conformance.md opens (the top-level name would override the plugin's).
const COUNTED = ['failed', 'broken', 'blocked', 'warning', 'untested', 'passed', 'skipped'];
/** @param {Record<string, number>} totals */
const counts = (totals) =>
  COUNTED.filter((k) => totals[k])
    .map((k) => `${totals[k]} ${k === 'skipped' ? 'not run' : k}`)
    .join(', ');
const reportName = summary
  ? `${summary.verdict.toUpperCase()}: ${counts(summary.totals ?? {})} requirements (${summary.target.baseUrl})`
  : 'Conformance';
/** @param {boolean} singleFile */
const awesomeOptions = (singleFile) => ({
  reportName,
  singleFile,
  groupBy: ['epic', 'feature', 'story'],
});

// History and trends across runs: Allure 3's history file, kept beside the suite's own history
// (reports/history/). OBG_ALLURE_SINGLE_FILE=1 builds the report as one self-contained HTML file
// (the certification package's); OBG_ALLURE_OUTPUT sets its folder; OBG_ALLURE_APPEND_HISTORY=0
// reads the history without adding the run to it (a report built again from the same results).
export default {
  name: reportName,
  output: internal('allureOutput') || resolve(reports, 'allure-report'),
  historyPath: resolve(reports, 'history', 'allure-history.jsonl'),
  appendHistory: internal('allureAppendHistory') !== '0',
  // OBG_ALLURE_BOTH=1 builds both forms from one reading of the results (the runner's default):
  // the served folder under <output>/awesome and the single file under <output>/single.
  plugins: {
    awesome: { options: awesomeOptions(internal('allureSingleFile') === '1') },
    ...(internal('allureBoth') === '1'
      ? { single: { import: '@allurereport/plugin-awesome', options: awesomeOptions(true) } }
      : {}),
  },
  // Few, so that the first tests stay on the first screen (Allure scrolls to its first test when
  // it lies below): the verdict is in the name, the specification's SHA-256 in conformance.json.
  variables: summary
    ? {
        target: summary.target.baseUrl,
        profile: summary.target.profile,
        suite: `${summary.suite.name} ${summary.suite.version} (${String(summary.suite.commit).slice(0, 12)})`,
        verdict: summary.verdict,
      }
    : {},
  // A test's verdict is the report's (harness/reporter/one-verdict.ts rewrites the results after
  // the fold): the label `verdict`, and `blockedBy` naming a blocked test's root cause, by which
  // the blocked are grouped (one group per root cause, not per message).
  categories: {
    rules: [
      {
        name: 'Target broken',
        matchers: [{ statuses: ['broken'] }, { statuses: ['failed'], message: /\[target broken\]|Test timeout of/ }],
      },
      {
        name: 'Suite error (not a verdict on the target)',
        matchers: {
          statuses: ['failed', 'broken'],
          message: /^(Error: )?(TypeError|ReferenceError|SyntaxError|RangeError)\b/,
        },
      },
      {
        name: 'MUST violations',
        matchers: [{ statuses: ['failed'], labels: { verdict: /^failed$/ } }],
        groupBy: [{ label: 'story' }],
        groupByMessage: false,
      },
      {
        name: 'SHOULD deviations (warnings, not fatal)',
        matchers: [{ statuses: ['failed'], labels: { verdict: /^warning$/ } }],
        groupBy: [{ label: 'story' }],
        groupByMessage: false,
      },
      // A check that could not reach its rule because an earlier step failed, or whose refusal has
      // no accepted valid request beside it: its root cause is reported on its own.
      {
        name: 'Blocked, by root cause',
        matchers: [{ statuses: ['skipped'], labels: { verdict: /^blocked$/ } }],
        groupBy: [{ label: 'blockedBy' }],
        groupByMessage: false,
      },
      // The requirements not run, apart by why, as the report counts them (harness/reporter/verdicts.ts, skipKind).
      { name: 'Not claimed', matchers: { statuses: ['skipped'], message: /not claimed/ } },
      { name: 'Not configured', matchers: { statuses: ['skipped'], message: /not configured/ } },
      { name: 'Not judged', matchers: { statuses: ['skipped'], message: /not judged|not applicable/ } },
    ],
  },
};
