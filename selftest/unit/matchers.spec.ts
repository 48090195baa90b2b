import { expect as plain, test } from '@playwright/test';
import { expect } from '../../harness/expect.js';
import { ApiResponse, type Exchange } from '../../harness/http/response.js';
import { SchemaRegistry } from '../../harness/schemas.js';

const exchange = (headers: Record<string, string> = {}): Exchange => ({
  seq: 1,
  method: 'GET',
  url: 'https://bank.example/psd2/aspspinformation/v1/aspsps',
  requestHeaders: { 'X-Request-ID': '0b9f6a3e-6f33-4d43-9c0b-1f3e0d9a2b11', ...headers },
  durationMs: 3,
  startedAt: new Date().toISOString(),
});
const response = (
  status: number,
  body: string,
  headers: Record<string, string> = { 'content-type': 'application/json' },
) => new ApiResponse(status, headers, body, exchange());

const failure = async (fn: () => unknown): Promise<string> => {
  try {
    await fn();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected the matcher to fail');
};

test('toMatchSchema names the JSON path, the keyword and the offending value', async () => {
  const res = response(
    200,
    JSON.stringify({ aspsps: [{ bicFi: 'ESSESESS', name: 'A' }, { bicFi: 'bad', name: 'B' }, { name: 'C' }] }),
  );
  const msg = await failure(() => expect(res).toMatchSchema('directory/aspsp-list'));
  plain(msg).toContain('$.aspsps[1].bicFi');
  plain(msg).toContain('[pattern]');
  plain(msg).toContain('"bad"');
  plain(msg).toContain('$.aspsps[2].bicFi');
  plain(msg).toContain('[required]');
  await expect(response(200, JSON.stringify({ aspsps: [] }))).toMatchSchema('directory/aspsp-list');
});

test('toBeTppError says which status, shape or code was wrong and what came back', async () => {
  const ok = response(400, JSON.stringify({ tppMessages: [{ category: 'ERROR', code: 'FORMAT_ERROR', text: 'x' }] }));
  await expect(ok).toBeTppError(400, 'FORMAT_ERROR');
  const wrongCode = await failure(() => expect(ok).toBeTppError(404, 'RESOURCE_UNKNOWN'));
  plain(wrongCode).toContain('status 400, expected 404');
  plain(wrongCode).toContain('codes ["FORMAT_ERROR"], expected RESOURCE_UNKNOWN');
  const html = await failure(() =>
    expect(response(400, '<h1>Bad</h1>', { 'content-type': 'text/html' })).toBeTppError(400),
  );
  plain(html).toContain('body is not JSON (text/html)');
  const shape = await failure(() =>
    expect(response(400, JSON.stringify({ tppMessages: [{ category: 'ERROR', errorCode: 'X' }] }))).toBeTppError(400),
  );
  plain(shape).toContain('$.tppMessages[0].code');
});

test('header matchers name the header and what was found', async () => {
  const res = response(200, '{}', { 'content-type': 'text/plain', 'x-request-id': 'other' });
  const ct = await failure(() => expect(res).toHaveHeader('Content-Type', /^application\/json/));
  plain(ct).toContain('Content-Type');
  plain(ct).toContain('"text/plain"');
  const echo = await failure(() => expect(res).toEchoRequestId());
  plain(echo).toContain('0b9f6a3e-6f33-4d43-9c0b-1f3e0d9a2b11');
  plain(echo).toContain('"other"');
  const status = await failure(() => expect(res).toHaveStatus([201, 202]));
  plain(status).toContain('Expected HTTP 201 or 202; got GET /psd2/aspspinformation/v1/aspsps → 200');
});

test('a body that is not JSON is a broken target, with what came back', () => {
  const res = response(200, '<html>oops</html>', { 'content-type': 'text/html' });
  plain(() => res.json()).toThrow(/\[target broken\].*expected a JSON body, got text\/html.*<html>oops<\/html>/);
});

test('every schema under schemas/ compiles (workers compile each one only on first use)', () => {
  const registry = new SchemaRegistry();
  plain(registry.ids.length).toBeGreaterThan(20);
  plain(() => registry.compileAll()).not.toThrow();
});
