import { expect as plain } from '@playwright/test';
import { test } from '../support/test.js';
import { expect } from '../../harness/expect.js';
import { ApiResponse, type Exchange } from '../../harness/http/response.js';

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

test('toBeTppError with a path asks for a tppMessage whose path names the field', async () => {
  const missing = (path: string) =>
    response(400, JSON.stringify({ tppMessages: [{ category: 'ERROR', code: 'FORMAT_ERROR', path, text: 'x' }] }));
  await expect(missing('$.payments[0].creditorName')).toBeTppError(400, 'FORMAT_ERROR', {
    path: 'payments[0].creditorName',
  });
  await expect(missing('payments.0.creditorName')).toBeTppError(400, 'FORMAT_ERROR', {
    path: 'payments[0].creditorName',
  });
  await expect(missing('/payments/0/creditorName')).toBeTppError(400, 'FORMAT_ERROR', {
    path: 'payments[0].creditorName',
  });
  await expect(missing('/debtorAccount')).toBeTppError(400, 'FORMAT_ERROR', { path: 'debtorAccount' });
  // Rooted at the request body, as request validators report it.
  await expect(missing('body.instructedAmount')).toBeTppError(400, 'FORMAT_ERROR', { path: 'instructedAmount' });
  await expect(missing('body.debtorAccount.iban')).toBeTppError(400, 'FORMAT_ERROR', { path: 'debtorAccount.iban' });
  const bodyOther = await failure(() =>
    expect(missing('body.debtorAccount')).toBeTppError(400, 'FORMAT_ERROR', { path: 'debtorAccount.iban' }),
  );
  plain(bodyOther).toContain('expected one naming debtorAccount.iban');
  // The whole path: the last name alone names a top-level field, not the nested one.
  const lastOnly = await failure(() =>
    expect(missing('creditorName')).toBeTppError(400, 'FORMAT_ERROR', { path: 'payments[0].creditorName' }),
  );
  plain(lastOnly).toContain('expected one naming payments[0].creditorName');
  const otherIndex = await failure(() =>
    expect(missing('payments[1].creditorName')).toBeTppError(400, 'FORMAT_ERROR', { path: 'payments[0].creditorName' }),
  );
  plain(otherIndex).toContain('expected one naming payments[0].creditorName');
  const other = await failure(() =>
    expect(missing('$.debtorAccount')).toBeTppError(400, 'FORMAT_ERROR', { path: 'creditorName' }),
  );
  plain(other).toContain('Expected HTTP 400 with tppMessages code FORMAT_ERROR and a path naming creditorName');
  plain(other).toContain('tppMessages paths ["$.debtorAccount"], expected one naming creditorName');
  const none = await failure(() =>
    expect(
      response(400, JSON.stringify({ tppMessages: [{ category: 'ERROR', code: 'FORMAT_ERROR', text: 'x' }] })),
    ).toBeTppError(400, 'FORMAT_ERROR', { path: 'creditorName' }),
  );
  plain(none).toContain('tppMessages paths [], expected one naming creditorName');
  const namePart = await failure(() =>
    expect(missing('$.creditorNameX')).toBeTppError(400, 'FORMAT_ERROR', { path: 'creditorName' }),
  );
  plain(namePart).toContain('expected one naming creditorName');
});

test('toBeRefused passes on a 4xx carrying no data and says what was expected and what came back', async () => {
  const error = JSON.stringify({ tppMessages: [{ category: 'ERROR', code: 'FORMAT_ERROR', text: 'x' }] });
  await expect(response(400, error)).toBeRefused();
  await expect(response(400, error)).toBeRefused(400);
  await expect(response(403, error)).toBeRefused([401, 403]);
  await expect(response(401, JSON.stringify({ error: 'invalid_client' }))).toBeRefused(401);
  await expect(response(404, '', {})).toBeRefused();

  const ok = await failure(() =>
    expect(response(201, JSON.stringify({ paymentId: 'p-1', transactionStatus: 'RCVD' }))).toBeRefused(),
  );
  plain(ok).toContain('Expected a refusal: HTTP 4xx carrying no data; got GET /psd2/aspspinformation/v1/aspsps → 201');
  plain(ok).toContain('status 201, expected a 4xx');
  plain(ok).toContain('"paymentId":"p-1"');

  const broken = await failure(() => expect(response(500, error)).toBeRefused());
  plain(broken).toContain('status 500, expected a 4xx');

  const other = await failure(() => expect(response(403, error)).toBeRefused(400));
  plain(other).toContain('Expected a refusal: HTTP 400 carrying no data; got GET');
  plain(other).toContain('status 403, expected 400');

  const created = await failure(() =>
    expect(response(400, JSON.stringify({ paymentId: 'p-2', tppMessages: [] }))).toBeRefused(400),
  );
  plain(created).toContain('the body carries $.paymentId');
  plain(created).not.toContain('status 400');

  const data = await failure(() =>
    expect(response(403, JSON.stringify({ balances: [{ balanceType: 'closingBooked' }] }))).toBeRefused(),
  );
  plain(data).toContain('the body carries $.balances');

  const not = await failure(() => expect(response(400, error)).not.toBeRefused());
  plain(not).toContain('Expected anything but a refusal: HTTP 4xx carrying no data; got it: GET');
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
