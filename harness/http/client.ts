import { randomUUID } from 'node:crypto';
import { test } from '@playwright/test';
import type { Dispatcher } from 'undici';
import { requiredHeaderValues, type Target } from '../config/target.js';
import { TargetBroken } from './broken.js';
import { limitsOf } from './limits.js';
import { resolveLink } from './links.js';
import { signRequest, SIGNING_HEADERS, type SignOptions } from './signing.js';
import { ApiResponse, type Exchange } from './response.js';
import { exchangeOnWire, MAX_BODY_BYTES, transport } from './transport.js';
import { internal } from '../config/user-settings.mjs';

export { MAX_BODY_BYTES } from './transport.js';

export type QueryValue = string | number | boolean | (string | number)[] | undefined;

/** Header value `null` removes a default header (to test that it is required). */
export type HeaderSpec = Record<string, string | null | undefined>;

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** A path under the target's base URL, an href from `_links`, or an absolute URL. */
  path: string;
  query?: Record<string, QueryValue>;
  headers?: HeaderSpec;
  /** A JSON body (sent with Content-Type application/json). */
  json?: unknown;
  /** A form body (application/x-www-form-urlencoded). */
  form?: Record<string, string>;
  /** A raw body, for malformed-input checks. */
  raw?: string;
  /** Do not add the bearer token (e.g. the token endpoint itself, or a missing-token check). */
  noAuth?: boolean;
  /** Token scope for this call, overriding the client's default. */
  scope?: string;
  /** A 5xx answer is normally a broken target; set when a 5xx is itself the thing judged. */
  allow5xx?: boolean;
  /** A 3xx is normally a broken target (an API answers, it does not send elsewhere). */
  allowRedirect?: boolean;
  /**
   * Sign this call (Authentication 6) with the settings' identity, or as `sign` says (another
   * identity, a body changed after signing, another Digest). Without it a call is signed when
   * the target mandates signing and the call sets none of Digest, Signature, TPP-Signature-Certificate.
   */
  sign?: boolean | SignOptions;
}

/** What a client adds to every call it sends. */
export interface ClientDefaults {
  /** Scope of the bearer token, e.g. "aspspinformation" (context scope added from the profile). */
  scope?: string;
  /** Add X-BicFi (every operation except the directory). */
  bicFi?: boolean;
  /** Extra headers on every call. */
  headers?: HeaderSpec;
  /** A 5xx is an answer to judge on every call (the generated phase: "no request ever gets a 5xx"), not a broken target. */
  allow5xx?: boolean;
}

export type TokenProvider = (scope: string) => Promise<string>;

const inTest = () => {
  try {
    test.info();
    return true;
  } catch {
    return false;
  }
};

const RECORD_BODY_CHARS = 64 * 1024;

/**
 * The one way the suite talks to a target: builds the common headers, resolves links, turns
 * transport trouble into TargetBroken, and records every exchange for the evidence.
 */
export class ApiClient {
  constructor(
    readonly target: Target,
    private readonly record: (e: Exchange) => void,
    private readonly tokens: TokenProvider,
    private readonly defaults: ClientDefaults = {},
    private readonly dispatcher: Dispatcher = transport(target),
  ) {}

  /** A client with other defaults over the same connections, recorder and tokens. */
  with(defaults: ClientDefaults): ApiClient {
    return new ApiClient(
      this.target,
      this.record,
      this.tokens,
      { ...this.defaults, ...defaults, headers: { ...this.defaults.headers, ...defaults.headers } },
      this.dispatcher,
    );
  }

  /** The same client with the tokens of another application (`tokens` may record its token calls). */
  withTokens(tokens: (record: (e: Exchange) => void) => TokenProvider): ApiClient {
    return new ApiClient(this.target, this.record, tokens(this.record), this.defaults, this.dispatcher);
  }

  url(path: string, query?: Record<string, QueryValue>): string {
    const url = new URL(resolveLink(this.target, path));
    for (const [k, v] of Object.entries(query ?? {})) {
      if (v === undefined) continue;
      for (const item of Array.isArray(v) ? v : [v]) url.searchParams.append(k, String(item));
    }
    return url.toString();
  }

  async send(spec: RequestSpec): Promise<ApiResponse> {
    const url = this.url(spec.path, spec.query);
    const headers: Record<string, string> = { 'X-Request-ID': randomUUID() };
    // Headers the bank requires on every call (profile requiredHeaders), under the test's own.
    Object.assign(headers, requiredHeaderValues(this.target));
    if (this.defaults.bicFi && this.target.bicFi) headers['X-BicFi'] = this.target.bicFi;
    const scope = spec.scope ?? this.defaults.scope;
    // A bank that takes no authentication (profile authentication "none"): no token, no Authorization.
    if (!spec.noAuth && scope && this.target.profile.authentication !== 'none')
      headers.Authorization = `Bearer ${await this.tokens(scope)}`;
    let body: string | undefined;
    if (spec.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(spec.json);
    } else if (spec.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(spec.form).toString();
    } else if (spec.raw !== undefined) {
      body = spec.raw;
    }
    for (const [k, v] of Object.entries({ ...this.defaults.headers, ...spec.headers })) {
      const existing = Object.keys(headers).find((h) => h.toLowerCase() === k.toLowerCase());
      if (existing) delete headers[existing];
      if (v !== null && v !== undefined) headers[k] = v;
    }
    const explicit = Object.keys({ ...this.defaults.headers, ...spec.headers }).some((h) =>
      SIGNING_HEADERS.some((s) => s.toLowerCase() === h.toLowerCase()),
    );
    const sign = spec.sign ?? (this.target.signAll && !explicit);
    if (sign) {
      if (!this.target.signing) throw new Error('signing asked for but TPP_SIGNING_KEY_FILE is not set');
      await signRequest(spec.method, url, headers, body, this.target.signing, sign === true ? {} : sign);
    }
    const u = new URL(url);
    const run = () => this.exchange(spec.method, url, headers, body, spec);
    // A step per call for the reports; the self-proof (no evidence) folds verdicts only, and a step's
    // stack capture is a fifth of a test's CPU there.
    return inTest() && internal('evidence') !== 'off'
      ? test.step(`${spec.method} ${u.pathname}`, run, { box: true })
      : run();
  }

  get(path: string, opts: Omit<RequestSpec, 'method' | 'path'> = {}) {
    return this.send({ method: 'GET', path, ...opts });
  }
  post(path: string, opts: Omit<RequestSpec, 'method' | 'path'> = {}) {
    return this.send({ method: 'POST', path, ...opts });
  }
  put(path: string, opts: Omit<RequestSpec, 'method' | 'path'> = {}) {
    return this.send({ method: 'PUT', path, ...opts });
  }
  delete(path: string, opts: Omit<RequestSpec, 'method' | 'path'> = {}) {
    return this.send({ method: 'DELETE', path, ...opts });
  }

  private async exchange(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    spec: RequestSpec,
  ): Promise<ApiResponse> {
    const started = Date.now();
    const exchange: Exchange = {
      seq: 0,
      method,
      url,
      requestHeaders: headers,
      requestBody: body,
      durationMs: 0,
      startedAt: new Date(started).toISOString(),
    };
    const path = new URL(url).pathname;
    try {
      const res = await exchangeOnWire(
        {
          method,
          url,
          headers,
          body,
          timeoutMs: this.target.timeouts.requestMs,
          limits: limitsOf(this.target.profile) ?? null,
        },
        this.dispatcher,
      );
      const buf = res.body;
      exchange.durationMs = Date.now() - started;
      exchange.status = res.status;
      exchange.statusText = res.statusText;
      exchange.responseHeaders = res.headers;
      const text = buf.toString('utf8');
      exchange.responseBody = text.length > RECORD_BODY_CHARS ? text.slice(0, RECORD_BODY_CHARS) : text;
      if (text.length > RECORD_BODY_CHARS || res.tooLarge) exchange.responseBytes = res.announcedBytes ?? res.bytes;
      this.record(exchange);
      const response = new ApiResponse(res.status, res.headers, text, exchange);
      if (res.tooLarge) {
        const size = res.decoded
          ? `of more than ${MAX_BODY_BYTES} bytes once decoded (Content-Encoding ${res.decoded.join(', ')}, ${res.bytes} bytes sent)`
          : res.announcedBytes !== undefined
            ? `of ${res.announcedBytes} bytes (Content-Length)`
            : `of more than ${res.bytes} bytes (chunked)`;
        throw new TargetBroken(
          `${method} ${path}: response body ${size} exceeds the ${MAX_BODY_BYTES}-byte cap; reading stopped at the cap`,
        );
      }
      if (response.status >= 300 && response.status < 400 && !spec.allowRedirect) {
        throw new TargetBroken(
          `${method} ${path}: redirected (${response.status}) to ${response.header('location') ?? '(no Location)'} where an answer was due`,
        );
      }
      if (response.status >= 500 && !(spec.allow5xx ?? this.defaults.allow5xx)) {
        throw new TargetBroken(`${method} ${path}: server error where a verdict was due: ${response.describe()}`);
      }
      // A body labelled JSON that does not parse is broken whether or not the test reads it.
      if (response.labelledJson && response.text.trim() && !response.isJson) response.json();
      return response;
    } catch (err) {
      if (err instanceof TargetBroken) throw err;
      exchange.durationMs = Date.now() - started;
      exchange.error = (err as Error).message.split('\n')[0];
      this.record(exchange);
      throw new TargetBroken(`${method} ${path}: no usable answer after ${exchange.durationMs} ms: ${exchange.error}`);
    }
  }
}
