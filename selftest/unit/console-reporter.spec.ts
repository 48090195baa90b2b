import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import type { FullConfig, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { test } from '../support/test.js';
import { fromRoot } from '../../harness/config/paths.js';
import { CONTROL_ANNOTATION, REQUIREMENT_ANNOTATION } from '../../harness/catalogue/req.js';
import ConsoleReporter from '../../harness/reporter/console.js';
import { countsOf } from '../../harness/reporter/console-summary.js';
import { skipsOf, totalsOf, type RequirementResult } from '../../harness/reporter/verdicts.js';

// The suite's console (harness/reporter/console.ts) driven as Playwright drives it, its output caught.

const fakeTest = (title: string, ids: string[], controls: string[] = []) =>
  ({
    id: title,
    title,
    location: { file: fromRoot('tests', 'consents', 'x.spec.ts'), line: 1, column: 1 },
    titlePath: () => ['', 'conformance', 'consents/x.spec.ts', title],
    annotations: [
      ...ids.map((description) => ({ type: REQUIREMENT_ANNOTATION, description })),
      ...controls.map((description) => ({ type: CONTROL_ANNOTATION, description })),
    ],
    timeout: 60_000,
    retries: 0,
    expectedStatus: 'passed',
  }) as unknown as TestCase;

/** A result whose error carries a stack through the harness, as a Blocked or a failed expect does. */
const fakeResult = (status: TestResult['status'], message = '') =>
  ({
    status,
    errors: message
      ? [
          {
            message,
            stack: `${message}\n    at ScaDriver.authorise (${fromRoot('harness', 'sca', 'driver.ts')}:120:11)\n    at throw new Blocked (${fromRoot('harness', 'http', 'broken.ts')}:32:5)`,
          },
        ]
      : [],
    annotations: [],
    retry: 0,
    duration: 5,
    startTime: new Date(),
    attachments: [],
    workerIndex: 0,
  }) as unknown as TestResult;

/** Runs `body` with stdout and stderr caught, REPORTS_DIR set and CI on (plain lines); returns the output. */
async function caught(reportsDir: string, body: () => Promise<void>): Promise<string> {
  const saved = { out: process.stdout.write, err: process.stderr.write, env: { ...process.env } };
  let output = '';
  const keep = (chunk: string | Uint8Array) => {
    output += chunk.toString();
    return true;
  };
  process.stdout.write = keep as typeof process.stdout.write;
  process.stderr.write = keep as typeof process.stderr.write;
  Object.assign(process.env, { REPORTS_DIR: reportsDir, CI: 'true' });
  delete process.env.TARGET_BASE_URL;
  try {
    await body();
  } finally {
    process.stdout.write = saved.out;
    process.stderr.write = saved.err;
    for (const k of Object.keys(process.env)) if (!(k in saved.env)) delete process.env[k];
    Object.assign(process.env, saved.env);
  }
  return output;
}

const CREATE = 'consents.create.response';

/** The run's conformance.json, as the conformance reporter writes it before the console ends. */
const requirement = (id: string, verdict: RequirementResult['verdict'], message: string, blockedBy?: string[]) => ({
  id,
  level: verdict === 'warning' ? ('SHOULD' as const) : ('MUST' as const),
  area: 'consents',
  section: 's',
  text: 't',
  verdict,
  tests: [{ title: id, file: 'tests/consents/x.spec.ts', status: verdict, message }],
  ...(blockedBy ? { blockedBy } : {}),
});
const REQUIREMENTS = [
  requirement(CREATE, 'failed', 'Error: Expected a success (HTTP 2xx); got POST /consents → 400'),
  requirement('consents.create.response-code', 'warning', 'Error: Expected HTTP 201; got 400'),
  requirement('consents.read.fields', 'blocked', `[blocked by ${CREATE}] create the consent`, [CREATE]),
  requirement('consents.create.required-fields', 'blocked', `[blocked by ${CREATE}] its positive control`, [CREATE]),
  requirement('consents.multilevel.last-signer', 'skipped', 'not claimed: consents.multilevel-sca'),
] as RequirementResult[];
const reportAt = (finishedAt: Date) => ({
  verdict: 'not-conformant',
  finishedAt: finishedAt.toISOString(),
  totals: totalsOf(REQUIREMENTS),
  skips: skipsOf(REQUIREMENTS),
  requirements: REQUIREMENTS,
});
const tests = [
  fakeTest('create', [CREATE]),
  fakeTest('create code', ['consents.create.response-code']),
  fakeTest('read', ['consents.read.fields']),
  fakeTest('refusal', ['consents.create.required-fields'], [CREATE]),
];

test('the console: progress lines, the report’s counts and lines, and no frame of the harness for a blocked or warned test', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'obg-console-'));
  const output = await caught(dir, async () => {
    const reporter = new ConsoleReporter();
    reporter.onBegin({ workers: 2 } as FullConfig, { allTests: () => tests } as unknown as Suite);
    const failure = 'Error: Expected a success (HTTP 2xx); got POST /consents → 400\nRequirement x (MUST): y';
    reporter.onTestEnd(tests[3], fakeResult('passed'));
    reporter.onTestEnd(tests[0], fakeResult('failed', failure));
    reporter.onTestEnd(tests[1], fakeResult('failed', 'Error: Expected HTTP 201; got 400'));
    reporter.onTestEnd(
      tests[2],
      fakeResult('failed', `Blocked: [blocked by ${CREATE}] create the consent: ${failure}`),
    );
    writeFileSync(join(dir, 'conformance.json'), JSON.stringify(reportAt(new Date())));
    await reporter.onEnd({ status: 'failed' } as never);
  });
  const lines = output.split('\n');
  expect(lines[0]).toBe('obg-conformance: 4 tests of consents, 2 worker(s)');
  // The refusal passed first: passed until its control failed, blocked once it did.
  expect(lines[1]).toBe('tests 1/4: 1 passed, 0 failed, 0 blocked; 0:00 elapsed');
  expect(lines[4]).toBe('tests 4/4: 0 passed, 1 failed, 2 blocked, 1 warned; 0:00 elapsed');
  expect(lines).toContain('verdict: NOT-CONFORMANT');
  expect(countsOf(output)).toEqual({ totals: totalsOf(REQUIREMENTS), skips: skipsOf(REQUIREMENTS) });
  expect(lines).toContain(`  ${CREATE}: Expected a success (HTTP 2xx); got POST /consents → 400`);
  expect(lines).toContain(`  ${CREATE} (failed) blocks 2`);
  for (const frame of [/broken\.ts/, /driver\.ts/, /^\s+at /m, /throw new Blocked/])
    expect(output, 'no frame of the harness').not.toMatch(frame);
});

test('a conformance.json older than the run is not read as its verdict', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'obg-console-'));
  writeFileSync(join(dir, 'conformance.json'), JSON.stringify(reportAt(new Date(Date.now() - 3_600_000))));
  const output = await caught(dir, async () => {
    const reporter = new ConsoleReporter({ progress: false });
    reporter.onBegin({ workers: 1 } as FullConfig, { allTests: () => [] } as unknown as Suite);
    await reporter.onEnd({ status: 'passed' } as never);
  });
  expect(output).toContain('verdict: none: no conformance.json was written for this run');
  expect(output).not.toMatch(/^tests /m);
});
