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
  /** Where the bank sent the PSU (the redirect URI with code, scope, state), never called. */
  location?: URL;
  code?: string;
  scope?: string;
  state?: string;
  error?: string;
}

/**
 * The suite's PSU in the redirect flow ('form' agent): opens the scaOAuth link as a browser
 * would, fills the bank's approval form over HTTP, and reads code, scope and state from the
 * redirect without calling the TPP's redirect URI.
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
    const loc = result.submitted.header('location');
    return loc ? { ...result, ...fromRedirect(new URL(loc, action)) } : result;
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
