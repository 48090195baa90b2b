import { expect, test } from '@playwright/test';
import { runSuite } from '../support/run-suite.js';
import { startServer } from '../support/servers.js';

test('a target that answers every request with an HTML 500 page gets failed or broken verdicts that say what came back', async () => {
  const target = await startServer((req, res) => {
    req.resume();
    res.writeHead(500, { 'Content-Type': 'text/html' });
    res.end('<!doctype html><html><body><h1>500 Internal Server Error</h1></body></html>');
  });
  try {
    const run = await runSuite({
      name: 'hostile-html-500',
      baseUrl: target.baseUrl,
      clientId: 'hostile-client',
      clientSecret: 'hostile-secret-value',
      projects: ['directory', 'headers'],
      timeoutMs: 180_000,
    });
    expect(run.exitCode, 'the run must fail').not.toBe(0);
    expect(run.report, `no conformance.json; output:\n${run.output.slice(-2000)}`).toBeDefined();
    const report = run.report!;
    expect(report.verdict).not.toBe('conformant');
    const judged = report.requirements.filter((r) => r.verdict !== 'skipped');
    expect(judged.length).toBeGreaterThan(10);
    expect(judged.filter((r) => r.verdict === 'passed').map((r) => r.id), 'nothing passes against an HTML 500 page').toEqual([]);
    for (const r of judged) {
      expect(['failed', 'broken', 'warning']).toContain(r.verdict);
      const message = r.tests.map((t) => t.message).join('\n');
      expect(message, `${r.id} must say what came back`).toMatch(/500/);
      expect(message, `${r.id} must say what came back`).toMatch(/text\/html|<h1>500/);
    }
    expect(JSON.stringify(report)).not.toContain('hostile-secret-value');
  } finally {
    await target.close();
  }
});
