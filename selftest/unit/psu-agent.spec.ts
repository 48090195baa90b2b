import { expect } from '@playwright/test';
import { test } from '../support/test.js';
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
