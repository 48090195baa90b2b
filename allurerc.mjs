// @ts-check
// Allure 3 configuration for `allure generate` (run by `npm run conformance`).
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ENV } from './harness/config/env-names.mjs';
import { reportsDirOf } from './harness/config/run-options.mjs';

// The command that runs `allure generate` hands down its settings (REPORTS_DIR among them).
const reports = reportsDirOf();
const summaryFile = resolve(reports, 'conformance.json');
const summary = existsSync(summaryFile) ? JSON.parse(readFileSync(summaryFile, 'utf8')) : undefined;

/** @param {boolean} singleFile */
const awesomeOptions = (singleFile) => ({
  reportName: summary ? `Conformance: ${summary.verdict} (${summary.target.baseUrl})` : 'Conformance',
  singleFile,
  groupBy: ['epic', 'feature', 'story'],
});

// History and trends across runs: Allure 3's history file, kept beside the suite's own history
// (reports/history/). OBG_ALLURE_SINGLE_FILE=1 builds the report as one self-contained HTML file
// (the certification package's); OBG_ALLURE_OUTPUT sets its folder; OBG_ALLURE_APPEND_HISTORY=0
// reads the history without adding the run to it (a report built again from the same results).
export default {
  name: 'obg-conformance: Open Banking Gateway API conformance',
  output: process.env[ENV.allureOutput] || resolve(reports, 'allure-report'),
  historyPath: resolve(reports, 'history', 'allure-history.jsonl'),
  appendHistory: process.env[ENV.allureAppendHistory] !== '0',
  // OBG_ALLURE_BOTH=1 builds both forms from one reading of the results (the runner's default):
  // the served folder under <output>/awesome and the single file under <output>/single.
  plugins: {
    awesome: { options: awesomeOptions(process.env[ENV.allureSingleFile] === '1') },
    ...(process.env[ENV.allureBoth] === '1'
      ? { single: { import: '@allurereport/plugin-awesome', options: awesomeOptions(true) } }
      : {}),
  },
  variables: summary
    ? {
        target: summary.target.baseUrl,
        profile: summary.target.profile,
        suite: `${summary.suite.name} ${summary.suite.version}`,
        commit: summary.suite.commit,
        'specification SHA-256': summary.suite.specSha256,
        verdict: summary.verdict,
      }
    : {},
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
      // A check that could not reach its rule because an earlier step failed: its root cause is reported on its own.
      { name: 'Blocked by an earlier failure', matchers: { statuses: ['failed'], message: /\[blocked by / } },
      { name: 'MUST violations', matchers: { statuses: ['failed'], labels: { level: 'MUST' } } },
      { name: 'SHOULD deviations', matchers: { statuses: ['failed'], labels: { level: /SHOULD|MAY/ } } },
      // The requirements not run, apart by why, as the report counts them (harness/reporter/verdicts.ts, skipKind).
      { name: 'Not claimed', matchers: { statuses: ['skipped'], message: /not claimed/ } },
      { name: 'Not configured', matchers: { statuses: ['skipped'], message: /not configured/ } },
      { name: 'Not judged', matchers: { statuses: ['skipped'], message: /not judged|not applicable/ } },
    ],
  },
};
