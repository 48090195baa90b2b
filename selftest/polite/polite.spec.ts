import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { fromRoot } from '../../harness/config/paths.js';
import { tagPattern } from '../../harness/catalogue/req.js';
import { rateLimitStats } from '../../sandbox/plugins/rate-limit.js';
import { tooManyRequestsOn } from '../support/hostile.js';
import { runDir } from '../support/run-dir.js';
import { runSuite } from '../support/run-suite.js';
import { startSandbox } from '../support/sandbox.js';
import { startServer } from '../support/servers.js';

/**
 * Polite to a shared sandbox (profile `limits`). A bounded slice of the suite (directory checks:
 * lists and details, which need no consent) runs against a sandbox that answers 429 with
 * Retry-After beyond its rate, under a profile whose bound is below it: the run must be
 * conformant and the rate it measured (conformance.json `limits`) at or under the bound. Against
 * a bank that answers 429 forever on the cities, the cities' checks are broken "rate limited"
 * and the countries' are judged as usual.
 */
const SLICE = [
  'directory.aspsps.list-shape',
  'directory.cities.list-shape',
  'directory.city.detail',
  'directory.countries.list-shape',
  'directory.country.detail',
];

/** The reference profile with `limits`, written beside the run's reports. */
function profileWith(name: string, limits: Record<string, number>): string {
  const profile = JSON.parse(readFileSync(fromRoot('profiles', 'reference.json'), 'utf8')) as Record<string, unknown>;
  const dir = runDir(`${name}-profile`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'profile.json');
  writeFileSync(file, JSON.stringify({ ...profile, name, limits }, null, 2));
  return file;
}

test('a shared sandbox that answers 429 beyond its rate: conformant, the measured rate within the profile bound', async () => {
  const sandbox = await startSandbox({ rateLimit: { perSecond: 6 } });
  try {
    const bound = 5;
    const run = await runSuite({
      name: 'polite-rate-limited',
      ...sandbox,
      // The slice's folder only: a runner given no folder loads every spec file to find the tags.
      areas: ['directory'],
      grep: tagPattern(SLICE),
      workers: 3,
      env: { TARGET_PROFILE: profileWith('polite', { requestsPerSecond: bound, concurrency: 3 }) },
      timeoutMs: 120_000,
    });
    const report = run.report;
    expect(report, run.output.slice(-3000)).toBeDefined();
    const stats = rateLimitStats(sandbox.app)!;
    const notPassed = report!.requirements.filter((r) => r.verdict !== 'passed' && r.verdict !== 'skipped');
    expect(notPassed.map((r) => `${r.id}: ${r.verdict}: ${r.tests[0]?.message}`)).toEqual([]);
    expect(report!.verdict, run.output.slice(-3000)).toBe('conformant');
    const limits = report!.limits!;
    expect(limits, 'conformance.json has the run\'s measured rate ("limits")').toBeDefined();
    expect(limits.requestsPerSecond).toBe(bound);
    expect(limits.requests, "every request went through the run's limiter").toBeGreaterThanOrEqual(stats.accepted);
    expect(limits.peakPerSecond, `measured ${JSON.stringify(limits)}`).toBeLessThanOrEqual(bound);
    expect(limits.peakConcurrency).toBeLessThanOrEqual(3);
    const md = readFileSync(join(run.reportsDir, 'conformance.md'), 'utf8');
    expect(md, 'conformance.md states the measured rate beside the bound').toContain(
      `peak ${limits.peakPerSecond} per second and ${limits.peakConcurrency} in flight (profile limits: ${bound} per second, 3 in flight)`,
    );
    test.info().annotations.push({
      type: 'measured',
      description: `suite: ${JSON.stringify(limits)}; sandbox: ${JSON.stringify(stats)}`,
    });
  } finally {
    await sandbox.close();
  }
});

test('a bank that answers 429 forever: those checks broken "rate limited", the rest of the run judged', async () => {
  const sandbox = await startSandbox();
  const front = await startServer(tooManyRequestsOn(sandbox.baseUrl, /\/cities/));
  try {
    const run = await runSuite({
      name: 'polite-429-forever',
      baseUrl: front.baseUrl,
      clientId: sandbox.clientId,
      clientSecret: sandbox.clientSecret,
      // The slice's folder only: a runner given no folder loads every spec file to find the tags.
      areas: ['directory'],
      grep: tagPattern(SLICE),
      // One: what is judged here is each check's own retries and give-up, not a bound shared by workers.
      workers: 1,
      env: { TARGET_PROFILE: profileWith('polite-forever', { retries: 1, maxRetryAfterMs: 2000 }) },
      timeoutMs: 120_000,
    });
    const report = run.report;
    expect(report, run.output.slice(-3000)).toBeDefined();
    const verdicts = Object.fromEntries(report!.requirements.map((r) => [r.id, r]));
    for (const id of ['directory.cities.list-shape', 'directory.city.detail']) {
      expect(verdicts[id]?.verdict, id).toBe('broken');
      expect(verdicts[id].tests.map((t) => t.message).join('\n'), id).toMatch(/rate limited: 429/);
    }
    for (const id of ['directory.aspsps.list-shape', 'directory.countries.list-shape', 'directory.country.detail']) {
      expect(verdicts[id]?.verdict, `${id}: ${verdicts[id]?.tests[0]?.message}`).toBe('passed');
    }
    expect(report!.limits?.rateLimited, 'the requests given up are counted').toBeGreaterThanOrEqual(2);
    expect(report!.limits?.retried).toBeGreaterThanOrEqual(2);
  } finally {
    await front.close();
    await sandbox.close();
  }
});
