import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { loadProfile } from '../../harness/config/profile.js';
import type { Target } from '../../harness/config/target.js';
import { ApiClient, MAX_BODY_BYTES } from '../../harness/http/client.js';
import type { Exchange } from '../../harness/http/response.js';
import { startServer, type LocalServer } from '../support/servers.js';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';

let server: LocalServer;
const seen: { url: string; headers: Record<string, string | string[] | undefined> }[] = [];

test.beforeAll(async () => {
  server = await startServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    req.resume();
    if (req.url?.startsWith('/html500')) {
      res.writeHead(500, { 'content-type': 'text/html' });
      return res.end('<h1>down</h1>');
    }
    if (req.url?.startsWith('/hang')) return; // never answers
    if (req.url?.startsWith('/reset')) return req.socket.destroy();
    if (req.url?.startsWith('/badjson')) {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      return res.end('{"aspsps": [');
    }
    if (req.url?.startsWith('/empty')) {
      res.writeHead(204, { 'content-type': 'application/json' });
      return res.end();
    }
    const coded = /^\/coded\/([\w-]+)/.exec(req.url ?? '')?.[1];
    if (coded) {
      const json = Buffer.from('{"ok":"decoded"}');
      const codings: Record<string, [string, Buffer]> = {
        gzip: ['gzip', gzipSync(json)],
        deflate: ['deflate', deflateSync(json)],
        'raw-deflate': ['deflate', deflateRawSync(json)],
        br: ['br', brotliCompressSync(json)],
        'gzip-br': ['gzip, br', brotliCompressSync(gzipSync(json))],
        zstd: ['zstd', gzipSync(json)],
        broken: ['gzip', Buffer.from([0x1f, 0x8b, 0x08, 0, 0xff, 0xfe, 0x00, 0x01])],
        bomb: ['gzip', gzipSync(Buffer.alloc(MAX_BODY_BYTES + 1024, 0x20))],
      };
      const [encoding, body] = codings[coded];
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
      return res.end(body);
    }
    if (req.url?.startsWith('/loop')) {
      res.writeHead(302, { location: '/loop' });
      return res.end();
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
});
test.afterAll(async () => server.close());

const client = (record: (e: Exchange) => void = () => {}) => {
  const target = {
    baseUrl: server.baseUrl,
    profile: loadProfile('reference'),
    bicFi: 'SBXBSESS',
    timeouts: { requestMs: 1500, scaMs: 5000 },
  } as Target;
  return new ApiClient(target, record, async (scope) => `token-for-${scope.replace(' ', '-')}`, {
    scope: 'accountinformation',
    bicFi: true,
  });
};

test('each call gets a fresh uuid X-Request-ID, X-BicFi and the bearer token; null removes a header', async () => {
  seen.length = 0;
  const api = client();
  await api.get('/a');
  await api.get('/b', { headers: { 'X-BicFi': null, 'PSU-IP-Address': '192.0.2.1' } });
  await api.get('/c', { noAuth: true });
  const [a, b, c] = seen;
  expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(b.headers['x-request-id']).not.toBe(a.headers['x-request-id']);
  expect(a.headers['x-bicfi']).toBe('SBXBSESS');
  expect(a.headers.authorization).toBe('Bearer token-for-accountinformation');
  expect(b.headers['x-bicfi']).toBeUndefined();
  expect(b.headers['psu-ip-address']).toBe('192.0.2.1');
  expect(c.headers.authorization).toBeUndefined();
});

test('array query parameters are repeated', async () => {
  seen.length = 0;
  await client().get('/q', { query: { isoCountryCodes: ['SE', 'NO'], one: 1 } });
  expect(seen[0].url).toBe('/q?isoCountryCodes=SE&isoCountryCodes=NO&one=1');
});

test('every exchange is recorded, including the failing ones', async () => {
  const recorded: Exchange[] = [];
  const api = client((e) => recorded.push(e));
  await api.get('/ok');
  await expect(api.get('/reset')).rejects.toThrow(/\[target broken\]/);
  expect(recorded.map((e) => [e.status, !!e.error])).toEqual([
    [200, false],
    [undefined, true],
  ]);
});

test('transport trouble is a broken target that says what happened', async () => {
  const api = client();
  await expect(api.get('/html500')).rejects.toThrow(
    /\[target broken\] GET \/html500: server error .*500.*text\/html.*<h1>down<\/h1>/,
  );
  await expect(api.get('/hang')).rejects.toThrow(/\[target broken\] GET \/hang: no usable answer after \d+ ms/);
  await expect(api.get('/reset')).rejects.toThrow(/\[target broken\] GET \/reset: no usable answer/);
  await expect(api.get('/loop')).rejects.toThrow(/\[target broken\] GET \/loop: redirected \(302\) to \/loop/);
});

test('a body labelled JSON that does not parse is broken even when the test never reads it; an empty one is not', async () => {
  const api = client();
  await expect(api.get('/badjson')).rejects.toThrow(
    /\[target broken\] GET \/badjson → 200: expected a JSON body, got application\/json; charset=utf-8: invalid JSON .*body: \{"aspsps": \[/,
  );
  expect((await api.get('/empty')).status).toBe(204);
});

test('a body over the cap is read no further than the cap, announced or chunked, and the target is broken', async () => {
  const big = await startServer((req, res) => {
    req.resume();
    const mb = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    res.writeHead(
      200,
      req.url === '/announced'
        ? { 'content-type': 'application/json', 'content-length': String(64 * mb.length) }
        : { 'content-type': 'application/json' },
    );
    const more = () => {
      while (sent < 64 && !res.destroyed) {
        sent++;
        if (!res.write(mb)) return void res.once('drain', more);
      }
      res.end();
    };
    res.on('error', () => {});
    res.on('close', () => served.push(sent));
    more();
  });
  const served: number[] = [];
  try {
    const recorded: Exchange[] = [];
    const target = {
      baseUrl: big.baseUrl,
      profile: loadProfile('reference'),
      timeouts: { requestMs: 5000, scaMs: 5000 },
    } as Target;
    const api = new ApiClient(
      target,
      (e) => recorded.push(e),
      async () => 'token',
    );
    await expect(api.get('/announced')).rejects.toThrow(
      new RegExp(
        `GET /announced: response body of ${64 * 1024 * 1024} bytes \\(Content-Length\\) exceeds the ${MAX_BODY_BYTES}-byte cap`,
      ),
    );
    await expect(api.get('/chunked')).rejects.toThrow(
      new RegExp(
        `GET /chunked: response body of more than \\d+ bytes \\(chunked\\) exceeds the ${MAX_BODY_BYTES}-byte cap`,
      ),
    );
    // The client stopped reading: the server could not send all 64 MB of either answer.
    await expect.poll(() => served.length).toBe(2);
    for (const mbSent of served) expect(mbSent).toBeLessThan(64);
    expect(recorded.map((e) => e.responseBytes)).toEqual([64 * 1024 * 1024, expect.any(Number)]);
  } finally {
    await big.close();
  }
});

test('a compressed answer is decoded whether or not Accept-Encoding was sent: gzip, deflate (zlib or raw), br, and codings stacked', async () => {
  seen.length = 0;
  const api = client();
  for (const coding of ['gzip', 'deflate', 'raw-deflate', 'br', 'gzip-br']) {
    const res = await api.get(`/coded/${coding}`);
    expect(res.json(), coding).toEqual({ ok: 'decoded' });
  }
  expect(seen.every((s) => s.headers['accept-encoding'] === undefined)).toBe(true);
});

test('a coding the suite cannot decode, or a body that does not decode, is broken in words, with no byte of the body', async () => {
  const api = client();
  const zstd = api.get('/coded/zstd');
  await expect(zstd).rejects.toThrow(
    /\[target broken\].*compressed unasked \(the request sent no Accept-Encoding\) with Content-Encoding zstd, which the suite cannot decode/,
  );
  const broken = await api.get('/coded/broken').catch((e: Error) => e.message);
  expect(broken).toMatch(/\[target broken\].*Content-Encoding gzip .* do not decode as gzip/);
  // eslint-disable-next-line no-control-regex -- no control character of the body may reach the message
  expect(broken).not.toMatch(/[\u0000-\u0008\u000E-\u001F\uFFFD]/);
  await expect(api.get('/coded/bomb')).rejects.toThrow(/once decoded \(Content-Encoding gzip/);
});
