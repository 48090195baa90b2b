// init, step 2 (probing): the PSU agent (sca.psuAgent), chosen by the authorise page the bank
// serves: a static HTML form the form agent fills over HTTP; a login page (or a page a script
// builds) the browser agent drives when Chromium is there, else a person (manual).
import { randomUUID } from 'node:crypto';
import { findChromium, type FoundChromium } from '../../harness/config/chromium.js';
import { loadSettings } from '../../harness/config/user-settings.mjs';
import { parseForm } from '../../harness/sca/psu-agent.js';
import type { Answers } from './ask.js';

export type BrowserStep = { fill: string; from: string } | { click: string } | { waitForRedirect: true };

export interface AgentChoice {
  psuAgent: 'form' | 'browser' | 'manual';
  browser?: { approve: BrowserStep[]; deny?: BrowserStep[] };
  reason: string;
  /** The .env keys the browser agent's steps type. */
  loginKeys: string[];
}

interface PageInput {
  selector: string;
  name: string;
  type: string;
}

const attr = (tag: string, n: string) =>
  new RegExp(`\\b${n}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i')
    .exec(tag)
    ?.slice(2)
    .find((v) => v !== undefined);

/** The selector of the form's button whose value or label is the decision (approve, deny). */
function buttonOf(inner: string, decision: string): string | undefined {
  for (const m of inner.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/gi)) {
    const value = (attr(m[1], 'value') ?? '').toLowerCase();
    const label = m[2]
      .replace(/<[^>]+>/g, '')
      .trim()
      .toLowerCase();
    if (value !== decision && label !== decision) continue;
    const id = attr(m[1], 'id');
    const name = attr(m[1], 'name');
    if (id) return `#${id}`;
    return name ? `button[name="${name}"][value="${attr(m[1], 'value') ?? ''}"]` : `button:has-text("${label}")`;
  }
  return undefined;
}

/** The first form's inputs a PSU must type (a password, or an empty text field) and its approve and deny buttons. */
export function readForm(html: string) {
  if (!parseForm(html)) return undefined;
  const inner = /<form\b[^>]*>([\s\S]*?)<\/form>/i.exec(html)![1];
  const typed: PageInput[] = [];
  for (const m of inner.matchAll(/<input\b[^>]*>/gi)) {
    const type = (attr(m[0], 'type') ?? 'text').toLowerCase();
    const name = attr(m[0], 'name') ?? '';
    const id = attr(m[0], 'id');
    const value = attr(m[0], 'value') ?? '';
    const needsTyping = type === 'password' || (['text', 'email', 'tel', 'number'].includes(type) && !value);
    if (needsTyping && (id || name)) typed.push({ selector: id ? `#${id}` : `input[name="${name}"]`, name, type });
  }
  return { typed, approve: buttonOf(inner, 'approve'), deny: buttonOf(inner, 'deny') };
}

/** The browser agent's steps drafted from a login form: each field typed from a .env key, then approve. */
function stepsOf(form: NonNullable<ReturnType<typeof readForm>>, loginKeys: string[]) {
  const approve: BrowserStep[] = form.typed.map((f) => {
    const key = `PSU_LOGIN_${(f.type === 'password' ? 'password' : f.name || f.selector).toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;
    if (!loginKeys.includes(key)) loginKeys.push(key);
    return { fill: f.selector, from: key };
  });
  approve.push({ click: form.approve ?? 'button[type="submit"]' }, { waitForRedirect: true });
  return { approve, ...(form.deny ? { deny: [{ click: form.deny }, { waitForRedirect: true as const }] } : {}) };
}

/** The page as Chromium renders it (its scripts run), or undefined when it cannot be rendered. */
async function rendered(at: string, found: FoundChromium): Promise<string | undefined> {
  try {
    const { chromium } = await import('@playwright/test');
    const browser = await chromium.launch({ ...(await found.launchOptions()), headless: true });
    try {
      const page = await browser.newPage();
      await page.goto(at, { timeout: 15_000 });
      await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
      return await page.content();
    } finally {
      await browser.close();
    }
  } catch {
    return undefined;
  }
}

/** The page the agent is chosen by: the consent's authorise link, else the bank's authorise URL (no consent behind it). */
function pageToRead(a: Answers, authorizeUrl: string, seen: { url?: string; from?: string }, psuContext: string) {
  if (seen.url) return { at: seen.url, from: seen.from! };
  if (!a.clientId) return undefined;
  const u = new URL(authorizeUrl);
  u.search = new URLSearchParams({
    client_id: a.clientId,
    response_type: 'code',
    scope: `accountinformation ${psuContext}`,
    state: randomUUID(),
    ...(a.redirectUri ? { redirect_uri: a.redirectUri } : {}),
  }).toString();
  return { at: u.toString(), from: "the bank's authorise URL (no consent behind it)" };
}

/** The agent for a page that asks the PSU to type, or that a script builds: browser with Chromium, else manual. */
async function agentForLoginPage(
  html: string,
  page: { at: string; from: string },
  chromiumPath: string,
): Promise<AgentChoice> {
  // The browser agent's lookup (harness/config/chromium.ts): CHROMIUM_PATH, Debian's chromium or the npm package's build.
  let found: FoundChromium | undefined;
  try {
    found = findChromium(chromiumPath);
  } catch {
    found = undefined;
  }
  const form = readForm(html);
  const loginKeys: string[] = [];
  const why = form
    ? form.typed.length
      ? `${page.from} is a form that asks the PSU to type ${form.typed.map((f) => f.name || f.selector).join(', ')}, which the form agent cannot`
      : `${page.from} is a form without a button "approve" the form agent can press`
    : `${page.from} holds no form in its HTML (a script builds the page), which the form agent cannot read`;
  if (!found)
    return {
      psuAgent: 'manual',
      reason: `${why}; no Chromium at ${chromiumPath} (install Debian's chromium package, set CHROMIUM_PATH, or npm install @sparticuz/chromium, for the browser agent), so a person approves: the suite prints the authorise URL and waits for the return to REDIRECT_URI (a loopback http URI with a port, or set PSU_CALLBACK_LISTEN)`,
      loginKeys,
    };
  const shown = form ?? readForm((await rendered(page.at, found)) ?? '');
  if (shown)
    return {
      psuAgent: 'browser',
      browser: stepsOf(shown, loginKeys),
      reason: `${why}; Chromium (${found.executablePath}) drives it. The steps in sca.browser are read from the ${form ? 'page' : 'page as Chromium renders it'}: check them`,
      loginKeys,
    };
  return {
    psuAgent: 'browser',
    browser: { approve: [{ click: 'button:has-text("Approve")' }, { waitForRedirect: true }] },
    reason: `${why}; Chromium (${found.executablePath}) drives it. No form was found even as Chromium renders it: sca.browser holds a guess, replace it with the steps on the bank's login page (Playwright selectors; fill steps type the value of a .env key)`,
    loginKeys,
  };
}

/** The PSU agent for the bank, and why. */
export async function choosePsuAgent(
  a: Answers,
  authorizeUrl: string,
  seen: { url?: string; from?: string },
  psuContext: string,
): Promise<AgentChoice> {
  const chromiumPath = loadSettings().CHROMIUM_PATH;
  const page = pageToRead(a, authorizeUrl, seen, psuContext);
  const keep = `"form" is kept (the reference sandbox's): ${a.probeConsent ? '' : 'with --probe-consent init opens the authorise page of one consent; '}if the bank's page asks the PSU to log in, write "browser" with sca.browser steps (needs Chromium) or "manual"`;
  if (!page) return { psuAgent: 'form', reason: `nothing probed (no client id); ${keep}`, loginKeys: [] };
  let status = 0;
  let html = '';
  try {
    const res = await fetch(page.at, { headers: { Accept: 'text/html' }, redirect: 'follow' });
    status = res.status;
    html = /html/i.test(res.headers.get('content-type') ?? '') ? await res.text() : '';
  } catch (err) {
    return {
      psuAgent: 'form',
      reason: `${page.from} could not be fetched (${(err as Error).message}); ${keep}`,
      loginKeys: [],
    };
  }
  if (!html || status < 200 || status >= 300)
    return {
      psuAgent: 'form',
      reason: `${page.from} answered ${status}${html ? '' : ' without an HTML page'}: nothing judged; ${keep}`,
      loginKeys: [],
    };
  const form = readForm(html);
  if (form && !form.typed.length && form.approve)
    return {
      psuAgent: 'form',
      reason: `${page.from} is a static HTML form the form agent fills over HTTP (hidden fields and a button "approve")`,
      loginKeys: [],
    };
  return agentForLoginPage(html, page, chromiumPath);
}
