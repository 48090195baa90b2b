import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { build } from '../../sandbox/app.js';
import { runSuite, type SuiteRun } from '../support/run-suite.js';
import { ENV } from '../../harness/config/env-names.mjs';
import { countsOf } from '../../harness/reporter/console-summary.js';
import { allureCounts, greenBlocked, junitCounts, reportTestCounts } from '../support/one-verdict.js';
import { lookAtReports } from '../support/look-at-reports.js';

/**
 * A bank that refuses every request (a 400 with a Berlin Group error, as a bank does that wants a
 * header the suite does not send), its token endpoint aside. A refusal check accepts any 4xx:
 * against this bank each one would pass, and prove nothing. The suite must see that the same
 * request made valid was never accepted: no refusal passes, every check that needed a step the
 * bank refused is blocked naming the requirement that failed first, and only the checks that make
 * the valid request themselves fail. Its console is the suite's own, as a user's CI sees it
 * (progress lines, no terminal): short, its counts the report's, and no blocked or warned check
 * printed as a Playwright failure with a stack frame of the harness.
 */

/** At most this many console lines for a run against a bank that refuses everything. */
const CONSOLE_LINES = 200;

/** What a Playwright failure of the suite's own harness prints: a stack frame or a code frame of it. */
const HARNESS_FRAMES = [
  /^\s+at .*\b(harness|tests)\/[\w/.-]+\.ts:\d+/m,
  /\bthrow new Blocked\b/,
  /^\s+>?\s*\d+ \|/m,
  /harness\/http\/broken\.ts/,
];

// Two areas keep it small: consents (creates and their refusals) and authorisations (cascades of a create).
const AREAS = ['consents', 'authorisations'];

/** Requirements judged here whose checks name a positive control (from the messages of blocked ones). */
const controlBlocked = (run: SuiteRun) =>
  run.report!.requirements.filter(
    (r) => r.verdict === 'blocked' && r.tests.some((t) => t.message.includes('its positive control')),
  );

test('a bank that refuses everything: no refusal passes, every cascade is blocked by its root cause', async ({
  chromiumBrowser,
}) => {
  test.setTimeout(280_000);
  const clientId = 'refuser-client';
  const clientSecret = 'refuser-secret-value';
  const app = await build({ clients: [{ clientId, clientSecret, redirectUris: ['https://tpp.example/callback'] }] });
  app.addHook('onRequest', async (req, reply) => {
    if (req.url.startsWith('/connect/')) return;
    await reply
      .code(400)
      .header('content-type', 'application/json')
      .header('x-request-id', String(req.headers['x-request-id'] ?? ''))
      .send({ tppMessages: [{ category: 'ERROR', code: 'FORMAT_ERROR', text: 'header Date is missing' }] });
  });
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const run = await runSuite({
      name: 'refuses-everything',
      baseUrl,
      clientId,
      clientSecret,
      areas: AREAS,
      workers: 1,
      // The console with its progress lines (the self-tests' runs are quiet otherwise).
      env: { [ENV.probe]: '0', [ENV.quiet]: '0', CI: 'true' },
      timeoutMs: 240_000,
    });
    expect(run.report, `no conformance.json; output:\n${run.output.slice(-2000)}`).toBeDefined();
    const report = run.report!;
    const byId = new Map(report.requirements.map((r) => [r.id, r]));
    const passed = report.requirements.filter((r) => r.verdict === 'passed');
    const failed = report.requirements.filter((r) => r.verdict === 'failed');
    const blocked = report.requirements.filter((r) => r.verdict === 'blocked');
    console.log(
      `refuses everything (${AREAS.join(', ')}): ${report.requirements.length} requirements, ${passed.length} passed, ${failed.length} failed, ${blocked.length} blocked (${controlBlocked(run).length} refusals blocked by their positive control), ${report.totals.warning} warning, ${report.totals.broken} broken; ${Math.round(run.durationMs / 1000)} s`,
    );
    expect(report.verdict).toBe('not-conformant');
    // Nothing passes: every refusal check waits on its control, which the bank refused.
    expect(
      passed.map((r) => r.id),
      'no refusal passes against a bank that refuses the valid request too',
    ).toEqual([]);
    // Every blocked requirement names a root cause that failed here (or lies in an area this run leaves out).
    const unexplained = blocked.filter(
      (r) =>
        !(r.blockedBy ?? []).length ||
        !(r.blockedBy ?? []).every((id) => byId.get(id)?.verdict === 'failed' || !byId.has(id)),
    );
    expect(
      unexplained.map((r) => `${r.id} blocked by ${r.blockedBy?.join(', ')}`),
      'each block names a root cause that failed',
    ).toEqual([]);
    // The cascades of a refused create are blocked, not failed.
    for (const id of ['consents.read.fields', 'consents.status.response', 'authorisations.create.response']) {
      expect(byId.get(id)?.verdict, `${id}: ${byId.get(id)?.tests[0]?.message.slice(0, 300)}`).toBe('blocked');
      expect(byId.get(id)?.blockedBy).toEqual(['consents.create.response']);
    }
    // Refusal checks named by the issue: blocked by the valid request's requirement, never passed.
    for (const id of [
      'consents.create.required-fields',
      'consents.limits.frequency-min',
      'consents.create.body-json',
    ]) {
      expect(byId.get(id)?.verdict, id).toBe('blocked');
    }
    expect(byId.get('consents.create.response')?.verdict).toBe('failed');
    expect(JSON.stringify(report)).not.toContain(clientSecret);
    expectShortConsole(run);
    expectOneVerdict(run);
    // Looked at in Chromium (where the suite finds one): the verdict first, blocked read blocked, nothing outside.
    if (chromiumBrowser)
      expect(
        await lookAtReports(chromiumBrowser, run.reportsDir, /^NOT-CONFORMANT: /),
        'requests outside the machine',
      ).toEqual([]);
    else console.log('refuses everything: no Chromium here, the reports were not opened');
  } finally {
    await app.close();
  }
});

/** The console of the run: at most CONSOLE_LINES lines, the report's counts, a line per failed MUST, no harness frame. */
function expectShortConsole(run: SuiteRun) {
  const report = run.report!;
  const lines = run.output.split('\n').filter((l) => l.trim() !== '');
  console.log(`refuses everything: ${lines.length} console lines`);
  expect(lines.length, `console lines; output:\n${run.output.slice(-4000)}`).toBeLessThanOrEqual(CONSOLE_LINES);
  expect(run.output, 'progress lines while the run goes').toMatch(
    /^tests \d+\/\d+: \d+ passed, \d+ failed, \d+ blocked/m,
  );
  expect(countsOf(run.output), "the console's counts are the report's").toEqual({
    totals: report.totals,
    skips: report.skips,
  });
  for (const q of report.requirements.filter((r) => r.verdict === 'failed'))
    expect(run.output, `a line for the failed MUST ${q.id}`).toContain(`  ${q.id}: `);
  expect(run.output).toMatch(/^ {2}consents\.create\.response \(failed\) blocks \d+$/m);
  for (const frame of HARNESS_FRAMES) expect(run.output, 'no frame of the harness').not.toMatch(frame);
}

/**
 * One verdict everywhere: Allure's results and junit.xml, written as each test ended, say after the
 * fold what the report says, test by test; no blocked requirement shows only green tests.
 */
function expectOneVerdict(run: SuiteRun) {
  const report = run.report!;
  const allure = allureCounts(run.reportsDir);
  const ours = reportTestCounts(report);
  console.log(
    `refuses everything: Allure ${JSON.stringify(allure.byStatus)} by verdict ${JSON.stringify(allure.byVerdict)}; the report's tests ${JSON.stringify(ours.byVerdict)}`,
  );
  expect(allure.byStatus, "Allure's counts per status are the report's").toEqual(ours.byStatus);
  expect(allure.byVerdict, "Allure's verdict labels are the report's").toEqual(ours.byVerdict);
  expect(allure.byVerdict.blocked, 'blocked tests, each read blocked in Allure').toBeGreaterThan(0);
  const n = (k: string) => ours.byVerdict[k] ?? 0;
  expect(junitCounts(run.reportsDir), "junit.xml's counts are the report's").toEqual({
    tests: Object.values(ours.byVerdict).reduce((a, b) => a + b, 0),
    failures: n('failed') + n('warning') + n('broken'),
    skipped: n('skipped') + n('blocked'),
  });
  expect(greenBlocked(run.reportsDir, report), 'blocked requirements with only green tests in Allure').toEqual([]);
}
