import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { ApiResponse } from '../../harness/http/response.js';
import { classify } from '../../harness/sca/authorise-answer.js';
import { isRedirectUri, pageNavigation } from '../../harness/sca/psu-agent.js';

const BANK = 'https://bank.example/connect/authorize';
const TPP = 'https://tpp.example/callback';

test('a return page that navigates by meta refresh is read, its URL resolved and its entities decoded', () => {
  const html = `<html><head><meta http-equiv="refresh" content="0; url=${TPP}?code=c1&amp;scope=s&amp;state=x"></head></html>`;
  const nav = pageNavigation(html, BANK, TPP);
  expect(nav?.by).toBe('meta refresh');
  expect(nav?.url.searchParams.get('code')).toBe('c1');
  expect(nav?.url.searchParams.get('state')).toBe('x');
});

test('a return page whose script sets or replaces location is read, with JavaScript escapes undone', () => {
  for (const script of [
    `window.location.replace("https:\\/\\/tpp.example\\/callback?code=c2\\u0026state=y");`,
    `location.href = 'https://tpp.example/callback?code=c2&state=y';`,
    `document.location = "https://tpp.example/callback?code=c2&state=y"`,
  ]) {
    const nav = pageNavigation(`<p>Returning…</p><script>${script}</script>`, BANK, TPP);
    expect(nav?.by, script).toBe('script');
    expect(isRedirectUri(nav!.url.toString(), TPP), script).toBe(true);
    expect(nav?.url.searchParams.get('code'), script).toBe('c2');
    expect(nav?.url.searchParams.get('state'), script).toBe('y');
  }
});

test('a form posting itself to the redirect URI gives its fields as the return parameters; another form does not', () => {
  const post = `<form method="post" action="${TPP}"><input type="hidden" name="code" value="c3"><input type="hidden" name="state" value="z"></form>`;
  const nav = pageNavigation(post, BANK, TPP);
  expect(nav?.by).toBe('form post (post)');
  expect(nav?.fields).toEqual({ code: 'c3', state: 'z' });
  expect(nav?.url.searchParams.get('code')).toBe('c3');
  const approval = `<form method="post" action="/connect/authorize"><button name="decision" value="approve">Approve</button></form>`;
  expect(pageNavigation(approval, BANK, TPP)).toBeUndefined();
});

test('isRedirectUri compares origin and path, not the query', () => {
  expect(isRedirectUri(`${TPP}?code=1`, TPP)).toBe(true);
  expect(isRedirectUri('https://tpp.example/other?code=1', TPP)).toBe(false);
  expect(isRedirectUri('https://evil.example/callback', TPP)).toBe(false);
  expect(isRedirectUri('not a url', TPP)).toBe(false);
});

test("the bank's own answer to an authorise request: a refusal, a code or an untrusted redirect, or its page", () => {
  const EVIL = 'https://not-whitelisted.example/steal';
  const answer = (status: number, headers: Record<string, string> = {}) =>
    new ApiResponse(status, { 'content-type': 'text/html', ...headers }, '<html></html>', {
      seq: 1,
      method: 'GET',
      url: BANK,
      requestHeaders: {},
      durationMs: 1,
      startedAt: new Date().toISOString(),
    });
  const kind = (status: number, location?: string, untrusted?: string) =>
    classify(answer(status, location ? { location } : {}), BANK, untrusted).kind;
  // Refused at once: an error page, or an error sent back to the whitelisted redirect URI.
  expect(kind(400)).toBe('refused');
  expect(kind(302, `${TPP}?error=invalid_request&state=s`)).toBe('refused');
  expect(kind(302)).toBe('refused');
  // Issued: to the untrusted URI (even with an error), or a code without the PSU.
  expect(kind(302, `${EVIL}?error=invalid_request`, EVIL)).toBe('issued');
  expect(kind(302, `${TPP}?code=c&state=s`)).toBe('issued');
  expect(classify(answer(302, { location: `${TPP}?code=c9` }), BANK).code).toBe('c9');
  // Shown: the bank's page, or its login inside the bank (relative Location), or another origin's login.
  expect(kind(200)).toBe('shown');
  expect(kind(302, '/login?session=1')).toBe('shown');
  expect(kind(303, 'https://login.bank-idp.example/start')).toBe('shown');
});
