import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { build } from '../../sandbox/app.js';
import { runSuite, type SuiteRun } from '../support/run-suite.js';
import { ENV } from '../../harness/config/env-names.mjs';

/**
 * A bank that refuses every request (a 400 with a Berlin Group error, as a bank does that wants a
 * header the suite does not send), its token endpoint aside. A refusal check accepts any 4xx:
 * against this bank each one would pass, and prove nothing. The suite must see that the same
 * request made valid was never accepted: no refusal passes, every check that needed a step the
 * bank refused is blocked naming the requirement that failed first, and only the checks that make
 * the valid request themselves fail.
 */

// Two areas keep it small: consents (creates and their refusals) and authorisations (cascades of a create).
const AREAS = ['consents', 'authorisations'];

/** Requirements judged here whose checks name a positive control (from the messages of blocked ones). */
const controlBlocked = (run: SuiteRun) =>
  run.report!.requirements.filter(
    (r) => r.verdict === 'blocked' && r.tests.some((t) => t.message.includes('its positive control')),
  );

test('a bank that refuses everything: no refusal passes, every cascade is blocked by its root cause', async () => {
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
      env: { [ENV.probe]: '0' },
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
  } finally {
    await app.close();
  }
});
