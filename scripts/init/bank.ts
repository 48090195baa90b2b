// init: how it talks to the bank. One connection pool with the TPP's TLS material, the headers
// every call carries, the headers the bank turned out to require (a refusal that names a header
// the call did not send), and the application tokens of the chosen authentication.
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { Dispatcher } from 'undici';
import type { Settings } from '../../harness/config/settings.js';
import { loadSettings } from '../../harness/config/user-settings.mjs';
import { readTls } from '../../harness/http/tls.js';
import { exchangeOnWire, makeDispatcher } from '../../harness/http/transport.js';
import type { Answers } from './ask.js';

/** One answer of the bank, read as init needs it. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The body parsed as JSON, when it is JSON. */
  json?: unknown;
  /** The body is an HTML page. */
  html: boolean;
  /** The first tppMessages code (or an OAuth2 `error`), when the body carries one. */
  code?: string;
  /** Why nothing came back (transport), instead of an answer. */
  error?: string;
}

/** A header the bank requires beside the specification's (profile requiredHeaders). */
export interface RequiredHeader {
  name: string;
  generated?: 'date' | 'uuid';
  fromEnv?: string;
  /** The refusal that named it: method, path and its text. */
  seen: string;
}

interface CallOptions {
  headers?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
  /** The scope of the bearer token sent; none: no Authorization header. */
  scope?: string;
}

const TEXT_LIMIT = 64 * 1024;
/** Words that follow or precede "header" in an error text without being a header's name. */
const NOT_A_NAME = new Set([
  'is',
  'was',
  'are',
  'the',
  'a',
  'an',
  'missing',
  'required',
  'mandatory',
  'value',
  'field',
]);

/** Headers the specification names, which the suite sends where they belong: never a bank's own requirement. */
const SPEC_HEADERS = new Set(
  [
    'authorization',
    'x-request-id',
    'x-bicfi',
    'consent-id',
    'psu-id',
    'psu-corporate-id',
    'psu-ip-address',
    'psu-user-agent',
    'content-type',
    'digest',
    'signature',
    'tpp-signature-certificate',
    'tpp-redirect-preferred',
    'tpp-redirect-uri',
    'fx-quote-id',
  ].map((h) => h.toLowerCase()),
);

/** The header an error text says is missing, when it names one (e.g. "Date header is required"). */
export function missingHeaderOf(text: string): string | undefined {
  if (!/missing|required|mandatory|absent|not (?:present|provided|set)|expected/i.test(text)) return undefined;
  const names = [
    ...[...text.matchAll(/\bheaders?\s*[:"'`]?\s*["'`]?([A-Za-z][A-Za-z0-9-]*)/gi)].map((m) => m[1]),
    ...[...text.matchAll(/["'`]?([A-Za-z][A-Za-z0-9-]*)["'`]?\s+header\b/gi)].map((m) => m[1]),
  ];
  return names.find((n) => !NOT_A_NAME.has(n.toLowerCase()));
}

/** How the suite sends a required header: an HTTP date, a fresh UUID, or a value from a .env key. */
export function requiredHeaderOf(name: string, seen: string): RequiredHeader {
  if (/^date$/i.test(name)) return { name, generated: 'date', seen };
  if (/request-?id|correlation|idempotency|trace-?id/i.test(name)) return { name, generated: 'uuid', seen };
  return {
    name,
    fromEnv: name
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '_')
      .replace(/^_+|_+$/g, ''),
    seen,
  };
}

/** The texts of an error body: tppMessages' texts, an OAuth2 error description, or the body itself. */
function errorTexts(a: Answer): string[] {
  const body = a.json as
    { tppMessages?: { text?: unknown; path?: unknown }[]; error_description?: unknown } | undefined;
  const texts = (body?.tppMessages ?? [])
    .flatMap((m) => [m.text, m.path])
    .filter((t): t is string => typeof t === 'string');
  if (typeof body?.error_description === 'string') texts.push(body.error_description);
  if (!texts.length && !a.html) texts.push(a.text.slice(0, 500));
  return texts;
}

/** The bank answered none of several calls in a row (refused, reset, timed out): init stops. */
export class Unreachable extends Error {}

/** Calls in a row without an answer before init stops: a bank that hangs would cost 15 s a call. */
const UNANSWERED_IN_A_ROW = 4;

export class Bank {
  readonly required: RequiredHeader[] = [];
  /** Every call made: "METHOD path → status", for the notes. */
  readonly log: string[] = [];
  /** The token endpoint, once found (discover.ts); client credentials are sent there. */
  tokenUrl = '';
  /** Why no application token could be had, once tried. */
  tokenProblem = '';
  private readonly tokens = new Map<string, string | undefined>();
  private unanswered = 0;
  private readonly dispatcher: Dispatcher;

  constructor(
    readonly answers: Answers,
    readonly psuContext: string,
  ) {
    const tls = readTls({
      TARGET_CA_FILE: answers.caFile && resolve(answers.caFile),
      TLS_CLIENT_CERT_FILE: answers.tlsCert && resolve(answers.tlsCert),
      TLS_CLIENT_KEY_FILE: answers.tlsKey && resolve(answers.tlsKey),
      TLS_CLIENT_KEY_PASSPHRASE: '',
    } as Settings);
    this.dispatcher = makeDispatcher(tls);
  }

  /** An absolute URL under the base URL. */
  url(path: string): string {
    return /^https?:/.test(path) ? path : `${this.answers.baseUrl}/${path.replace(/^\/+/, '')}`;
  }

  /** The headers the bank requires, with this call's values. */
  private requiredValues(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const h of this.required) {
      if (h.generated === 'date') out[h.name] = new Date().toUTCString();
      else if (h.generated === 'uuid') out[h.name] = randomUUID();
      else if (h.fromEnv && loadSettings().named[h.fromEnv]) out[h.name] = loadSettings().named[h.fromEnv];
    }
    return out;
  }

  /** One call; a refusal naming a header the call did not send is learned and the call made again with it. */
  async call(method: string, path: string, o: CallOptions = {}): Promise<Answer> {
    const first = await this.once(method, path, o);
    if (first.status < 400 || first.status >= 500) return first;
    const name = errorTexts(first)
      .map(missingHeaderOf)
      .find((n) => n !== undefined);
    if (!name || SPEC_HEADERS.has(name.toLowerCase())) return first;
    if (this.required.some((h) => h.name.toLowerCase() === name.toLowerCase())) return first;
    const sent = Object.keys(this.headersOf(o, '')).map((h) => h.toLowerCase());
    if (sent.includes(name.toLowerCase())) return first;
    const header = requiredHeaderOf(
      name,
      `${method} /${new URL(this.url(path)).pathname.replace(/^\/+/, '')} → ${first.status}: ${errorTexts(first)[0]?.slice(0, 160)}`,
    );
    this.required.push(header);
    return header.fromEnv && !loadSettings().named[header.fromEnv] ? first : this.once(method, path, o);
  }

  private headersOf(o: CallOptions, token: string): Record<string, string> {
    return {
      'X-Request-ID': randomUUID(),
      ...(this.answers.bicFi ? { 'X-BicFi': this.answers.bicFi } : {}),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(o.json !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...(o.form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
      ...this.requiredValues(),
      ...o.headers,
    };
  }

  private async once(method: string, path: string, o: CallOptions): Promise<Answer> {
    const token = o.scope ? await this.token(o.scope) : '';
    const url = this.url(path);
    const body =
      o.json !== undefined ? JSON.stringify(o.json) : o.form ? new URLSearchParams(o.form).toString() : undefined;
    const shown = `${method} ${new URL(url).pathname}`;
    try {
      const res = await exchangeOnWire(
        {
          method,
          url,
          headers: this.headersOf(o, token ?? ''),
          body,
          timeoutMs: 15_000,
          maxBodyBytes: TEXT_LIMIT,
          limits: null,
        },
        this.dispatcher,
      );
      const text = res.body.toString('utf8');
      const type = res.headers['content-type'] ?? '';
      let json: unknown;
      try {
        json = /json/i.test(type) || /^\s*[[{]/.test(text) ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      const html = /html/i.test(type) || /^\s*<(!doctype|html)/i.test(text);
      const tpp = (json as { tppMessages?: { code?: unknown }[]; error?: unknown } | undefined) ?? {};
      const code =
        typeof tpp.tppMessages?.[0]?.code === 'string'
          ? tpp.tppMessages[0].code
          : typeof tpp.error === 'string'
            ? tpp.error
            : undefined;
      this.log.push(`${shown} → ${res.status}`);
      this.unanswered = 0;
      return { status: res.status, headers: res.headers, text, json, html, ...(code ? { code } : {}) };
    } catch (err) {
      const error = (err as Error).message.split('\n')[0];
      this.log.push(`${shown} → ${error}`);
      if (++this.unanswered >= UNANSWERED_IN_A_ROW)
        throw new Unreachable(`${UNANSWERED_IN_A_ROW} calls in a row got no answer, the last ${shown}: ${error}`);
      return { status: 0, headers: {}, text: '', html: false, error };
    }
  }

  /**
   * The application token of a scope: the pre-issued token; else client credentials (or, with
   * mutual TLS only, the client id alone: RFC 8705) at the token endpoint. Without a client id
   * (or without a token endpoint) the token endpoint is never tried.
   */
  async token(scope: string): Promise<string | undefined> {
    const a = this.answers;
    if (a.auth === 'none') return undefined;
    if (a.auth === 'token') return a.accessToken;
    if (!a.clientId || (a.auth === 'client-credentials' && !a.clientSecret) || !this.tokenUrl) return undefined;
    const full = `${scope} ${this.psuContext}`;
    if (this.tokens.has(full)) return this.tokens.get(full);
    this.tokens.set(full, undefined);
    const form: Record<string, string> = { grant_type: 'client_credentials', client_id: a.clientId, scope: full };
    if (a.auth === 'client-credentials') form.client_secret = a.clientSecret;
    const res = await this.call('POST', this.tokenUrl, { form });
    const token = (res.json as { access_token?: unknown } | undefined)?.access_token;
    if (res.status === 200 && typeof token === 'string' && token) {
      this.tokens.set(full, token);
      return token;
    }
    this.tokenProblem ||= `POST ${new URL(this.tokenUrl).pathname} (scope ${full}) answered ${res.error ?? `${res.status}${res.code ? ` ${res.code}` : ''}`}`;
    return undefined;
  }

  /** Closes the connections. */
  async close(): Promise<void> {
    await this.dispatcher.close().catch(() => undefined);
  }
}
