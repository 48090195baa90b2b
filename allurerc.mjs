// Allure 3 configuration for `allure generate` (run by `npm run conformance`).
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const reports = resolve(process.env.REPORTS_DIR || 'reports');
const summaryFile = resolve(reports, 'conformance.json');
const summary = existsSync(summaryFile) ? JSON.parse(readFileSync(summaryFile, 'utf8')) : undefined;

export default {
  name: 'obg-conformance: Open Banking Gateway API conformance',
  output: resolve(reports, 'allure-report'),
  plugins: {
    awesome: {
      options: {
        reportName: summary ? `Conformance: ${summary.verdict} (${summary.target.baseUrl})` : 'Conformance',
        singleFile: false,
        groupBy: ['epic', 'feature', 'story'],
      },
    },
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
      { name: 'Not claimed', matchers: { statuses: ['skipped'], message: /not claimed/ } },
    ],
  },
};
