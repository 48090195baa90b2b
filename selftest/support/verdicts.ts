import type { ConformanceReport } from '../../harness/reporter/report.js';

/** Requirements whose verdict is anything but passed or not claimed: what a clean run must not have. */
export function notPassed(report: ConformanceReport) {
  return report.requirements
    .filter((r) => r.verdict !== 'passed' && r.verdict !== 'skipped')
    .map(
      (r) =>
        `${r.id}: ${r.verdict}${
          r.tests.find((t) => t.message)?.message
            ? ` — ${r.tests
                .find((t) => t.message)!
                .message.split('\n')[0]
                .slice(0, 300)}`
            : ''
        }`,
    );
}
