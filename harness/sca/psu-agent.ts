import type { ApiClient } from '../http/client.js';
import type { ApiResponse } from '../http/response.js';

export interface ParsedForm {
  action: string;
  method: string;
  fields: Record<string, string>;
  /** The submit buttons' name=value pairs (e.g. decision=approve, decision=deny). */
  buttons: { name: string; value: string; label: string }[];
}

const attr = (tag: string, name: string): string | undefined => {
  const m = new RegExp(`\\b${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return m ? decodeEntities(m[2] ?? m[3] ?? m[4] ?? '') : undefined;
};

const decodeEntities = (s: string) =>
  s.replace(
    /&(amp|lt|gt|quot|#39|#x27);/g,
    (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" })[e] ?? _,
  );

/** The first form of an HTML page: its action, hidden and text fields, and submit buttons. */
export function parseForm(html: string): ParsedForm | undefined {
  const form = /<form\b[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) return undefined;
  const open = /<form\b[^>]*>/i.exec(form[0])![0];
  const fields: Record<string, string> = {};
  for (const m of form[1].matchAll(/<input\b[^>]*>/gi)) {
    const name = attr(m[0], 'name');
    const type = (attr(m[0], 'type') ?? 'text').toLowerCase();
    if (name && type !== 'submit') fields[name] = attr(m[0], 'value') ?? '';
  }
  const buttons: ParsedForm['buttons'] = [];
  for (const m of form[1].matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/gi)) {
    const name = attr(m[1], 'name');
    if (name) buttons.push({ name, value: attr(m[1], 'value') ?? '', label: m[2].replace(/<[^>]+>/g, '').trim() });
  }
  return { action: attr(open, 'action') ?? '', method: (attr(open, 'method') ?? 'get').toLowerCase(), fields, buttons };
}

export interface AgentResult {
  /** The authorise URL the PSU opened. */
  authorizeUrl: string;
  page: ApiResponse;
  /** The form submission (undefined when the page had no form). */
  submitted?: ApiResponse;
  /**
   * Where the bank sent the PSU (the redirect URI with code, scope, state), never called. For a
   * return by form post, the form's action with its fields as the query.
   */
  location?: URL;
  /** How the bank sent the PSU there, as the agent saw it (e.g. "302", "307", "script", "meta refresh", "form post"). */
  returnedBy?: string;
  code?: string;
  scope?: string;
  state?: string;
  error?: string;
}

/** Whether `url` is the TPP's redirect URI (same origin and path; any query). */
export function isRedirectUri(url: string, redirectUri: string): boolean {
  try {
    const u = new URL(url);
    const r = new URL(redirectUri);
    return u.origin === r.origin && u.pathname === r.pathname;
  } catch {
    return false;
  }
}

/** How many navigations inside the bank the form agent follows after the PSU's decision. */
const MAX_HOPS = 5;

/** A JavaScript string literal's common escapes (\/, \uXXXX, \xXX). */
const unescapeJs = (s: string) =>
  s
    .replace(/\\u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/\\x([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/\\(.)/g, '$1');

/**
 * Where an HTML page sends the browser on its own, without the PSU: a meta refresh, a script that
 * sets or replaces `location`, or a form that posts itself to the redirect URI.
 */
export function pageNavigation(
  html: string,
  base: string,
  redirectUri: string,
): { url: URL; by: string; fields?: Record<string, string> } | undefined {
  const meta = /<meta\b[^>]*http-equiv\s*=\s*["']?refresh["']?[^>]*>/i.exec(html);
  const content = meta ? attr(meta[0], 'content') : undefined;
  const metaUrl = content ? /url\s*=\s*['"]?([^'"]+)['"]?\s*$/i.exec(content)?.[1] : undefined;
  if (metaUrl) return { url: new URL(metaUrl.trim(), base), by: 'meta refresh' };
  for (const script of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)) {
    const m =
      /\blocation(?:\.href)?\s*=\s*(["'`])((?:\\.|(?!\1).)*)\1/.exec(script[1]) ??
      /\blocation\.(?:replace|assign)\(\s*(["'`])((?:\\.|(?!\1).)*)\1\s*\)/.exec(script[1]);
    if (m) return { url: new URL(unescapeJs(m[2]), base), by: 'script' };
  }
  for (const f of html.matchAll(/<form\b[^>]*>[\s\S]*?<\/form>/gi)) {
    const form = parseForm(f[0]);
    if (!form?.action) continue;
    const url = new URL(form.action, base);
    if (!isRedirectUri(url.toString(), redirectUri)) continue;
    for (const [k, v] of Object.entries(form.fields)) url.searchParams.set(k, v);
    return { url, by: `form post (${form.method})`, fields: form.fields };
  }
  return undefined;
}

/**
 * The suite's PSU in the redirect flow ('form' agent): opens the scaOAuth link as a browser
 * would, fills the bank's approval form over HTTP, and reads code, scope and state from the
 * return to the redirect URI without calling the TPP's redirect URI. The return may come as a
 * redirect (301, 302, 303, 307, 308), or as a page that sends the browser on by a meta refresh,
 * a script setting `location`, or a form posting itself to the redirect URI; the agent follows
 * up to five navigations inside the bank (never to another origin) to find it.
 */
export class PsuAgent implements RedirectAgent {
  /** `browser` must send no Authorization header: the PSU is not the TPP. */
  constructor(private readonly browser: ApiClient) {}

  async open(authorizeUrl: string): Promise<ApiResponse> {
    return this.browser.get(authorizeUrl, { noAuth: true, allowRedirect: true, headers: { Accept: 'text/html' } });
  }

  /** Opens the link and approves or denies. */
  async decide(authorizeUrl: string, decision: 'approve' | 'deny'): Promise<AgentResult> {
    const page = await this.open(authorizeUrl);
    const result: AgentResult = { authorizeUrl, page };
    const form = parseForm(page.text);
    if (page.status !== 200 || !form) return result;
    const button = form.buttons.find((b) => b.value.toLowerCase() === decision || b.label.toLowerCase() === decision);
    const fields = { ...form.fields, ...(button ? { [button.name]: button.value } : {}) };
    const action = new URL(form.action || authorizeUrl, authorizeUrl).toString();
    result.submitted = await this.browser.post(action, { form: fields, noAuth: true, allowRedirect: true });
    const back = await this.returnOf(result.submitted, action, fields, new URL(authorizeUrl).origin);
    return back ? { ...result, ...fromRedirect(back.url), returnedBy: back.by } : result;
  }

  /**
   * Where the answer `res` (to a request for `url`, a post of `fields` when given) sends the PSU:
   * the first navigation that leaves the bank's origin, following those that stay in it.
   */
  private async returnOf(
    res: ApiResponse,
    url: string,
    fields: Record<string, string> | undefined,
    bank: string,
    hops = 0,
  ): Promise<{ url: URL; by: string } | undefined> {
    const redirectUri = this.browser.target.redirectUri;
    let next: { url: URL; by: string; fields?: Record<string, string> } | undefined;
    const loc = res.header('location');
    if (res.status >= 300 && res.status < 400 && loc) next = { url: new URL(loc, url), by: String(res.status) };
    else if (res.status >= 200 && res.status < 300) next = pageNavigation(res.text, url, redirectUri);
    if (!next) return undefined;
    if (isRedirectUri(next.url.toString(), redirectUri) || next.url.origin !== bank || hops >= MAX_HOPS)
      return { url: next.url, by: next.by };
    // A navigation inside the bank: 307 and 308 repeat the post, the others fetch the page.
    const repost = (next.by === '307' || next.by === '308') && fields !== undefined;
    const target = next.url.toString();
    const hop = repost
      ? await this.browser.post(target, { form: fields, noAuth: true, allowRedirect: true })
      : next.fields
        ? await this.browser.post(target, { form: next.fields, noAuth: true, allowRedirect: true })
        : await this.browser.get(target, { noAuth: true, allowRedirect: true, headers: { Accept: 'text/html' } });
    return this.returnOf(hop, target, repost ? fields : next.fields, bank, hops + 1);
  }
}

/** How the PSU is played in the redirect flow: opens the authorise URL and approves or denies. */
export interface RedirectAgent {
  decide(authorizeUrl: string, decision: 'approve' | 'deny'): Promise<AgentResult>;
}

/** What the bank's redirect to the TPP carries: code, scope and state, or an error. */
export function fromRedirect(location: URL): Pick<AgentResult, 'location' | 'code' | 'scope' | 'state' | 'error'> {
  const q = location.searchParams;
  return {
    location,
    code: q.get('code') ?? undefined,
    scope: q.get('scope') ?? undefined,
    state: q.get('state') ?? undefined,
    error: q.get('error') ?? undefined,
  };
}

/** The authorise URL as the TPP sends the PSU to it: the bank's link with the TPP's own state and whitelisted redirect URI. */
export function authorizeUrlFor(
  scaOAuthHref: string,
  o: { state: string; redirectUri: string; clientId: string },
): string {
  const u = new URL(scaOAuthHref);
  u.searchParams.set('client_id', o.clientId);
  u.searchParams.set('redirect_uri', o.redirectUri);
  u.searchParams.set('state', o.state);
  return u.toString();
}
