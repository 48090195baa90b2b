import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { formatExchange } from '../../harness/evidence/format.js';
import { REDACTED, redactHeaders, redactText, registerSecret } from '../../harness/evidence/redact.js';
import { ApiResponse, type Exchange } from '../../harness/http/response.js';
import { because } from '../../harness/expect.js';

test('secret headers are redacted, others kept', () => {
  const out = redactHeaders({
    Authorization: 'Bearer abc.def',
    'PSU-ID': '19800101-1234',
    'PSU-Corporate-ID': 'corp-1',
    Signature: 'keyId="x"',
    'X-Request-ID': 'r-1',
  });
  expect(out).toEqual({
    Authorization: `Bearer ${REDACTED}`,
    'PSU-ID': REDACTED,
    'PSU-Corporate-ID': REDACTED,
    Signature: REDACTED,
    'X-Request-ID': 'r-1',
  });
});

test('token fields, form secrets, codes and bearer tokens are redacted in text; tppMessage codes are kept', () => {
  const json = JSON.stringify({ access_token: 'tok-123456', scope: 'x', tppMessages: [{ code: 'FORMAT_ERROR' }] });
  expect(redactText(json)).toBe(
    JSON.stringify({ access_token: REDACTED, scope: 'x', tppMessages: [{ code: 'FORMAT_ERROR' }] }),
  );
  expect(redactText('grant_type=authorization_code&code=abc123&client_secret=s3cr3t&client_id=me')).toBe(
    `grant_type=authorization_code&code=${REDACTED}&client_secret=${REDACTED}&client_id=me`,
  );
  expect(redactText('https://tpp.example/cb?code=xyz&state=s1')).toBe(
    `https://tpp.example/cb?code=${REDACTED}&state=s1`,
  );
  expect(redactText('got Authorization: Bearer eyJhbGciOi.x-y_z')).toBe(`got Authorization: Bearer ${REDACTED}`);
});

test('registered secret values are redacted wherever they appear', () => {
  registerSecret('psu-very-secret-42');
  expect(redactText('PSU psu-very-secret-42 said hello')).toBe(`PSU ${REDACTED} said hello`);
});

test('an exchange is formatted with its request, response and timing, redacted', () => {
  const text = formatExchange({
    seq: 1,
    method: 'POST',
    url: 'https://bank.example/connect/token',
    requestHeaders: { 'Content-Type': 'application/x-www-form-urlencoded' },
    requestBody: 'grant_type=client_credentials&client_secret=hunter22',
    status: 200,
    statusText: 'OK',
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: '{"access_token":"at-999999","expires_in":3600}',
    durationMs: 12,
    startedAt: '2026-01-01T00:00:00.000Z',
  });
  expect(text).toContain('POST https://bank.example/connect/token');
  expect(text).toContain('200 OK  (12 ms');
  expect(text).not.toContain('hunter22');
  expect(text).not.toContain('at-999999');
  expect(text).toContain('"expires_in": 3600');
});

test('a token answer quoted in a matcher message is redacted: the message names a recorded step, passed or not', () => {
  const token = 'DXd9ssMgRk9dqjGbhs4-Cg0gfkQFuE54';
  const res = new ApiResponse(
    200,
    { 'content-type': 'application/json' },
    JSON.stringify({ access_token: token, token_type: 'Bearer', scope: 'accountinformation private' }),
    { method: 'POST', url: 'http://127.0.0.1/connect/token' } as Exchange,
  );
  const message = because(`the scope words the token leaves out; got ${res.describe()}`);
  expect(message).not.toContain(token);
  // Once parsed, the token is a registered secret: redacted wherever else it is quoted.
  expect(redactText(`Bearer-less mention ${token}`)).not.toContain(token);
});
