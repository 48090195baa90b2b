import { expect, test } from '@playwright/test';
import { loadProfile } from '../../fixtures/config/profile.js';
import type { Target } from '../../fixtures/config/target.js';
import { ApiClient } from '../../fixtures/http/client.js';
import type { Exchange } from '../../fixtures/http/response.js';
import { startServer, type LocalServer } from '../support/servers.js';

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
    if (req.url?.startsWith('/loop')) {
      res.writeHead(302, { location: '/loop' });
      return res.end();
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
});
test.afterAll(async () => server.close());

const client = (request: import('@playwright/test').APIRequestContext, record: (e: Exchange) => void = () => {}) => {
  const target = {
    baseUrl: server.baseUrl,
    profile: loadProfile('reference'),
    bicFi: 'SBXBSESS',
    timeouts: { requestMs: 1500, scaMs: 5000 },
  } as Target;
  return new ApiClient(request, target, record, async (scope) => `token-for-${scope.replace(' ', '-')}`, { scope: 'accountinformation', bicFi: true });
};

test('each call gets a fresh uuid X-Request-ID, X-BicFi and the bearer token; null removes a header', async ({ request }) => {
  seen.length = 0;
  const api = client(request);
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

test('array query parameters are repeated', async ({ request }) => {
  seen.length = 0;
  await client(request).get('/q', { query: { isoCountryCodes: ['SE', 'NO'], one: 1 } });
  expect(seen[0].url).toBe('/q?isoCountryCodes=SE&isoCountryCodes=NO&one=1');
});

test('every exchange is recorded, including the failing ones', async ({ request }) => {
  const recorded: Exchange[] = [];
  const api = client(request, (e) => recorded.push(e));
  await api.get('/ok');
  await expect(api.get('/reset')).rejects.toThrow(/\[target broken\]/);
  expect(recorded.map((e) => [e.status, !!e.error])).toEqual([
    [200, false],
    [undefined, true],
  ]);
});

test('transport trouble is a broken target that says what happened', async ({ request }) => {
  const api = client(request);
  await expect(api.get('/html500')).rejects.toThrow(/\[target broken\] GET \/html500: server error .*500.*text\/html.*<h1>down<\/h1>/);
  await expect(api.get('/hang')).rejects.toThrow(/\[target broken\] GET \/hang: no usable answer after \d+ ms/);
  await expect(api.get('/reset')).rejects.toThrow(/\[target broken\] GET \/reset: no usable answer/);
  await expect(api.get('/loop')).rejects.toThrow(/\[target broken\] GET \/loop: redirected \(302\) to \/loop/);
});

test('a body labelled JSON that does not parse is broken even when the test never reads it; an empty one is not', async ({ request }) => {
  const api = client(request);
  await expect(api.get('/badjson')).rejects.toThrow(/\[target broken\] GET \/badjson → 200: expected a JSON body, got application\/json; charset=utf-8: invalid JSON .*body: \{"aspsps": \[/);
  expect((await api.get('/empty')).status).toBe(204);
});
