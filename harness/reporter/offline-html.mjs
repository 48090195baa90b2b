// @ts-check
// Nothing calls out: the built HTML reports (the Allure report served and as one file, the
// certification package's copy, the specification map) name no host outside the machine. Allure
// 3's page template loads Google's tag manager and sends the report's id and version to Google
// Analytics whenever it is opened online (@allurereport/plugin-awesome hard-codes it, with no
// option to turn it off); its application names two outside sites a click would open (Allure's
// own, and Playwright's online trace viewer, to which it would send a trace). All are taken out
// of what Allure built, in the folder and in the one file (whose application is inlined in base64).
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { Buffer } from 'node:buffer';
import { join } from 'node:path';

/** The analytics of Allure's template: the tag manager's script and the inline script that calls gtag. */
const ANALYTICS = [
  /<script\b[^>]*\bsrc="https?:\/\/www\.googletagmanager\.com\/[^"]*"[^>]*>\s*<\/script>\s*/g,
  /<script\b[^>]*>(?:(?!<\/script>)[\s\S])*?\bgtag\((?:(?!<\/script>)[\s\S])*?<\/script>\s*/g,
];

/** Outside addresses in Allure's application, and what stays in their place. */
const APP_URLS = [
  ['https://allurereport.org', '#'],
  ['https://trace.playwright.dev', 'about:blank'],
];

/**
 * Allure's application (JavaScript) with no outside address.
 * @param {string} js
 * @returns {string}
 */
export function offlineScript(js) {
  let out = js;
  for (const [url, instead] of APP_URLS) out = out.split(url).join(instead);
  return out;
}

/** A built page with no analytics, and its inlined scripts (data: URIs in base64) with no outside address. */
/** @param {string} html @returns {string} */
export function offlinePage(html) {
  let out = html;
  for (const re of ANALYTICS) out = out.replace(re, '');
  return out.replace(/(src="data:text\/javascript;base64,)([A-Za-z0-9+/=]+)"/g, (_m, head, b64) => {
    const js = Buffer.from(b64, 'base64').toString('utf8');
    const clean = offlineScript(js);
    return clean === js ? `${head}${b64}"` : `${head}${Buffer.from(clean, 'utf8').toString('base64')}"`;
  });
}

/**
 * Makes a built report offline in place: one HTML file, or a folder (its .html and .js files, not
 * below its data). Returns the files changed.
 */
/** @param {string} path @returns {string[]} */
export function makeOffline(path) {
  if (!existsSync(path)) return [];
  const files = statSync(path).isDirectory()
    ? readdirSync(path)
        .filter((n) => /\.(html|js)$/.test(n))
        .map((n) => join(path, n))
    : [path];
  const changed = [];
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    const clean = f.endsWith('.js') ? offlineScript(text) : offlinePage(text);
    if (clean !== text) {
      writeFileSync(f, clean, 'utf8');
      changed.push(f);
    }
  }
  return changed;
}

/** XML namespace names: identifiers that look like addresses, never fetched. */
const NAMESPACES = [
  'http://www.w3.org/2000/svg',
  'http://www.w3.org/1999/xhtml',
  'http://www.w3.org/1999/xlink',
  'http://www.w3.org/1998/Math/MathML',
  'http://www.w3.org/2000/xmlns/',
  'http://www.w3.org/XML/1998/namespace',
];
const LOOPBACK = /^(127(?:\.\d{1,3}){3}|localhost|\[::1\])(:\d+)?$/i;

/**
 * The outside addresses a page names: http(s)://host other than loopback (an XML namespace name
 * aside), or a protocol-relative //host in an attribute or a CSS url(); in the page and in the
 * scripts it inlines as base64.
 */
/** @param {string} text @returns {string[]} */
export function externalUrls(text) {
  const found = new Set();
  /** @param {string} t */
  const scan = (t) => {
    for (const m of t.matchAll(/\bhttps?:\/\/([A-Za-z0-9[][^\s"'`<>()\\/?#$]*)[^\s"'`<>()\\]*/g)) {
      if (LOOPBACK.test(m[1]) || NAMESPACES.some((ns) => m[0].startsWith(ns))) continue;
      found.add(m[0].slice(0, 120));
    }
    for (const m of t.matchAll(/(?:\b(?:src|href|action|poster)\s*=\s*["']|url\(\s*["']?)\/\/([^\s"'`<>()\\/]+)/gi))
      if (!LOOPBACK.test(m[1])) found.add(`//${m[1]}`);
  };
  scan(text);
  for (const m of text.matchAll(/data:text\/(?:javascript|css|html);base64,([A-Za-z0-9+/=]+)/g))
    scan(Buffer.from(m[1], 'base64').toString('utf8'));
  return [...found];
}
