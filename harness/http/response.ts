import { TargetBroken } from './broken.js';
import { registerSecret } from '../evidence/redact.js';

/** One request and its answer, as recorded for the evidence (redacted when attached). */
export interface Exchange {
  seq: number;
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status?: number;
  statusText?: string;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  /** Set when the body was cut for the record (its full size in bytes). */
  responseBytes?: number;
  durationMs: number;
  error?: string;
  startedAt: string;
}

/** Bytes no text holds (controls but whitespace, and what UTF-8 decoding could not read). */
// eslint-disable-next-line no-control-regex -- control characters are what the pattern finds
const NOT_TEXT = /[\u0000-\u0008\u000E-\u001F\uFFFD]/;

/**
 * The start of a body, flattened, for a message: a body that is not text (compressed, an image…)
 * is said to be so in words, never copied into the message.
 */
export const snippet = (text: string, max = 300): string => {
  if (NOT_TEXT.test(text.slice(0, 4096))) return `(${Buffer.byteLength(text)} bytes that are not text: not shown)`;
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}… (${text.length} chars)` : flat;
};

/** A target's answer: status, lower-cased headers, the raw text and, on demand, the JSON. */
/** The tokens an OAuth answer carries (RFC 6749 5.1, OpenID's id_token): secrets wherever they are quoted. */
function registerTokens(value: unknown): void {
  if (!value || typeof value !== 'object') return;
  for (const key of ['access_token', 'refresh_token', 'id_token']) {
    const token = (value as Record<string, unknown>)[key];
    if (typeof token === 'string' && token) registerSecret(token);
  }
}

export class ApiResponse {
  private parsed?: { ok: true; value: unknown } | { ok: false; error: string };

  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly text: string,
    readonly exchange: Exchange,
  ) {}

  /** "GET /path → 200", for messages. */
  get label(): string {
    const u = new URL(this.exchange.url);
    return `${this.exchange.method} ${u.pathname}${u.search} → ${this.status}`;
  }

  header(name: string): string | undefined {
    return this.headers[name.toLowerCase()];
  }

  get contentType(): string {
    return this.header('content-type') ?? '(none)';
  }

  /** True when the Content-Type says JSON (application/json or a +json type). */
  get labelledJson(): boolean {
    return /^application\/([\w.-]+\+)?json\b/i.test(this.header('content-type') ?? '');
  }

  /** True when the body parses as JSON. */
  get isJson(): boolean {
    return this.tryParse().ok;
  }

  /** The parsed JSON body, or undefined when there is none or it is not JSON. */
  get body(): unknown {
    const p = this.tryParse();
    return p.ok ? p.value : undefined;
  }

  /** The parsed JSON body; a body that is not JSON is a broken target. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a check reads the fields it judges
  json<T = any>(): T {
    const p = this.tryParse();
    if (!p.ok) {
      throw new TargetBroken(
        `${this.label}: expected a JSON body, got ${this.contentType}: ${p.error}; body: ${snippet(this.text) || '(empty)'}`,
      );
    }
    return p.value as T;
  }

  /** A short description of what came back, for failure messages. */
  describe(): string {
    // The tokens of a token answer are secrets before any message quotes the body.
    this.tryParse();
    return `${this.label} (${this.contentType}) body: ${snippet(this.text) || '(empty)'}`;
  }

  private tryParse() {
    if (!this.parsed) {
      if (!this.text.trim()) this.parsed = { ok: false, error: 'empty body' };
      else {
        try {
          this.parsed = { ok: true, value: JSON.parse(this.text) };
          registerTokens(this.parsed.value);
        } catch (err) {
          this.parsed = { ok: false, error: `invalid JSON (${(err as Error).message})` };
        }
      }
    }
    return this.parsed;
  }
}
