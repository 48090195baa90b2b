import type { IncomingMessage, ServerResponse } from 'node:http';
import { expect, test } from '@playwright/test';
import { MAX_BODY_BYTES } from '../../harness/http/client.js';
import { tagPattern } from '../../harness/req.js';
import { judged, serveToken, unexplained } from '../support/hostile.js';
import { runSuite } from '../support/run-suite.js';
import { startServer } from '../support/servers.js';

/**
 * Targets that misbehave on the wire. A slice of the suite (directory and headers: they need no
 * consent) runs against each one; every requirement it judges must come out failed or broken,
 * never passed, with a message that says what came back, and the run must end in bounded time.
 * The slice is one check of each kind (shape, detail, 4xx expected, common headers): every
 * failed test costs a fresh Playwright worker, so the whole areas would cost minutes per target.
 */
const SLICE = [
  'directory.aspsps.list-shape',
  'directory.aspsp.detail-shape',
  'directory.aspsp.unknown',
  'directory.cities.list-shape',
  'directory.countries.list-shape',
  'headers.x-request-id.required',
  'headers.x-request-id.echo',
  'headers.authorization.required',
  'headers.errors.tpp-messages',
  'headers.content-type.json',
];
const grep = tagPattern(SLICE);

interface Hostile {
  name: string;
  /** Answers an API call (the token endpoint is served properly, see serveToken). */
  api(req: IncomingMessage, res: ServerResponse): void;
  /** What every verdict's message must show of the answer. */
  says: RegExp;
  /** Only broken verdicts are honest here (nothing usable came back at all). */
  brokenOnly?: boolean;
  /** The token endpoint misbehaves too (otherwise it answers properly, see serveToken). */
  tokenToo?: boolean;
  /** Requirements the target does keep, with the reason (their pass is honest). */
  mayPass?: Record<string, string>;
  env?: Record<string, string>;
  /** Bound on the whole run. */
  withinMs: number;
  /** Bound on the run's peak memory (runner and workers together). */
  maxRssBytes?: number;
}

const json = (res: ServerResponse, status: number, body: string, type = 'application/json') => {
  res.writeHead(status, { 'Content-Type': type });
  res.end(body);
};

const FIFTY_MB = 50 * 1024 * 1024;
const MB = 1024 * 1024;

/** Sends 50 MB of spaces, a megabyte at a time, as fast as the client reads (and stops when it hangs up). */
const flood = (res: ServerResponse, headers: Record<string, string>) => {
  res.writeHead(200, headers);
  const chunk = Buffer.alloc(MB, 0x20);
  let sent = 0;
  const more = () => {
    while (sent < FIFTY_MB && !res.destroyed) {
      sent += MB;
      if (!res.write(chunk)) return void res.once('drain', more);
    }
    res.end();
  };
  res.on('error', () => {});
  more();
};

const HOSTILE: Hostile[] = [
  {
    name: 'answers every request, tokens included, with an HTML 500 page',
    api: (req, res) =>
      json(res, 500, '<!doctype html><html><body><h1>500 Internal Server Error</h1></body></html>', 'text/html'),
    says: /500[\s\S]*(text\/html|<h1>500)|(text\/html|<h1>500)[\s\S]*500/,
    brokenOnly: true,
    tokenToo: true,
    withinMs: 150_000,
  },
  {
    name: 'answers every call with invalid JSON',
    api: (req, res) => json(res, 200, '{"aspsps": [{"bicFi": "SBXBSESS", "name": '),
    says: /invalid JSON/,
    withinMs: 150_000,
  },
  {
    name: 'answers every call with JSON of another shape',
    api: (req, res) => json(res, 200, JSON.stringify({ result: { items: [], page: 1 }, ok: true })),
    says: /result|must have required property|got .*→ 200/,
    mayPass: { 'headers.content-type.json': 'the answers are JSON, labelled application/json' },
    withinMs: 150_000,
  },
  {
    name: 'starts an answer that never ends',
    api: (req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"aspsps": [');
    },
    says: /timed out after 1500 ms|did not finish/,
    brokenOnly: true,
    env: { REQUEST_TIMEOUT_MS: '1500' },
    withinMs: 200_000,
  },
  {
    name: 'resets every connection',
    api: (req) => req.socket.destroy(),
    says: /ECONNRESET|socket hang up|reset|closed/i,
    brokenOnly: true,
    withinMs: 150_000,
  },
  {
    name: 'answers with a 50 MB body, chunked (no Content-Length)',
    // No Content-Length: the client cannot refuse it up front, it must stop reading at its cap.
    api: (req, res) => flood(res, { 'Content-Type': 'application/json' }),
    says: new RegExp(
      `response body of more than \\d+ bytes \\(chunked\\) exceeds the ${MAX_BODY_BYTES}-byte cap; reading stopped at the cap`,
    ),
    brokenOnly: true,
    withinMs: 150_000,
    // Four workers; each reads one answer at a time and no more than the cap of it.
    maxRssBytes: 1_500 * MB,
  },
  {
    name: 'announces a 50 MB body (Content-Length)',
    api: (req, res) => flood(res, { 'Content-Type': 'application/json', 'Content-Length': String(FIFTY_MB) }),
    says: new RegExp(`response body of ${FIFTY_MB} bytes \\(Content-Length\\) exceeds the ${MAX_BODY_BYTES}-byte cap`),
    brokenOnly: true,
    withinMs: 150_000,
    maxRssBytes: 1_500 * MB,
  },
  {
    name: 'redirects every call to itself',
    api: (req, res) => {
      res.writeHead(302, { Location: req.url ?? '/' });
      res.end();
    },
    says: /redirected \(302\) to \//,
    brokenOnly: true,
    withinMs: 150_000,
  },
  {
    name: 'answers in XML where JSON is due (wrong Content-Type)',
    api: (req, res) =>
      json(res, 200, '<?xml version="1.0"?><aspsps><aspsp bicFi="SBXBSESS"/></aspsps>', 'application/xml'),
    says: /application\/xml/,
    withinMs: 150_000,
  },
];

for (const h of HOSTILE) {
  test(`a target that ${h.name} gets ${h.brokenOnly ? 'broken' : 'failed or broken'} verdicts that say what came back`, async () => {
    test.setTimeout(h.withinMs + 30_000);
    const target = await startServer((req, res) => {
      if (!h.tokenToo && serveToken(req, res)) return;
      req.resume();
      h.api(req, res);
    });
    try {
      const run = await runSuite({
        name: `hostile-${h.name.replace(/\W+/g, '-')}`,
        baseUrl: target.baseUrl,
        clientId: 'hostile-client',
        clientSecret: 'hostile-secret-value',
        projects: ['directory', 'headers'],
        grep,
        workers: 4,
        env: h.env,
        timeoutMs: h.withinMs,
      });
      expect(
        run.exitCode,
        `the run must end by itself within ${h.withinMs} ms, and fail; output:\n${run.output.slice(-1500)}`,
      ).toBe(1);
      expect(run.output, 'no crash of the runner or a worker').not.toMatch(
        /Worker process exited unexpectedly|out of memory|heap limit/i,
      );
      expect(run.report, `no conformance.json; output:\n${run.output.slice(-2000)}`).toBeDefined();
      expect(run.report!.verdict).not.toBe('conformant');
      const verdicts = judged(run);
      expect(verdicts.map((r) => r.id).sort(), 'the slice judges every requirement it names').toEqual(
        [...SLICE].sort(),
      );
      const kept = h.mayPass ?? {};
      expect(
        verdicts.filter((r) => r.verdict === 'passed' && !kept[r.id]).map((r) => r.id),
        'nothing passes',
      ).toEqual([]);
      const allowed = h.brokenOnly ? ['broken'] : ['failed', 'broken', 'warning'];
      expect(
        verdicts.filter((r) => !kept[r.id] && !allowed.includes(r.verdict)).map((r) => `${r.id}: ${r.verdict}`),
        `verdicts must be ${allowed.join(' or ')}`,
      ).toEqual([]);
      expect(unexplained(run, h.says, Object.keys(kept)), `every verdict must say what came back (${h.says})`).toEqual(
        [],
      );
      if (h.maxRssBytes) expect(run.peakRssBytes, 'peak memory of the run (bytes)').toBeLessThan(h.maxRssBytes);
      expect(JSON.stringify(run.report)).not.toContain('hostile-secret-value');
      console.log(
        `hostile: ${h.name}: ${verdicts.length} judged, ${run.report!.totals.broken} broken, ${run.report!.totals.failed} failed, ${Math.round(run.durationMs / 1000)} s, peak ${Math.round(run.peakRssBytes / MB)} MB`,
      );
    } finally {
      await target.close();
    }
  });
}
