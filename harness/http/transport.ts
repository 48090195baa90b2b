import { STATUS_CODES } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { Agent, EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import type { Target } from '../config/target.js';
import { gate, retryWaitMs, type Limits } from './limits.js';
import { connectOptions, type ProxySettings, type TlsMaterial } from './tls.js';

/** Bodies over this size are not read further: the target is judged broken, the run keeps its memory. */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

export interface WireRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** The whole exchange, from connecting to the last byte of the body. */
  timeoutMs: number;
  maxBodyBytes?: number;
  /** The profile's limits (harness/http/limits.ts: limitsOf(target.profile)); absent or `null`: none. */
  limits?: Limits | null;
}

export interface WireAnswer {
  status: number;
  statusText: string;
  /** Lower-case names; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  /** The body as read: whole, or its first maxBodyBytes when `tooLarge`. */
  body: Buffer;
  /** More than maxBodyBytes came, or Content-Length announced more: reading stopped there. */
  tooLarge: boolean;
  /** Bytes received (at most a chunk past the cap). */
  bytes: number;
  /** Content-Length, when the target sent one. */
  announcedBytes?: number;
  /** The content codings the body came in (Content-Encoding), undone: `body` is the decoded body. */
  decoded?: string[];
}

/** Why an exchange produced no answer, in words for the verdict. */
export class WireError extends Error {}

let pool: Dispatcher | undefined;

/**
 * A connection pool with the settings' TLS material (private CA, mutual TLS client certificate)
 * on every connection, through undici's proxy agent when HTTPS_PROXY or HTTP_PROXY is set
 * (NO_PROXY honoured); the TLS material then goes to the target through the proxy's tunnel.
 */
export function makeDispatcher(tls?: TlsMaterial, proxy?: ProxySettings): Dispatcher {
  const keepAlive = { keepAliveTimeout: 4_000, keepAliveMaxTimeout: 10_000 };
  const connect = connectOptions(tls);
  if (proxy) return new EnvHttpProxyAgent({ ...keepAlive, connect, requestTls: connect, ...proxy });
  return new Agent({ ...keepAlive, connect });
}

/**
 * One keep-alive connection pool per worker process, with the target's TLS material and proxy
 * (the worker's one target: the first one asked for); nothing follows redirects.
 */
export function transport(target: Pick<Target, 'tls' | 'proxy'>): Dispatcher {
  pool ??= makeDispatcher(target.tls, target.proxy);
  return pool;
}

/** A 429 that is the target's own verdict on the call (a consent's reads used up), not a rate limit. */
const isAccessExceeded = (a: WireAnswer): boolean => a.body.includes('ACCESS_EXCEEDED');

/**
 * One HTTP exchange over undici: bounded in time as a whole and in body size (read as a stream,
 * never past the cap), so a target that hangs, dribbles or floods costs one broken check.
 *
 * Under the profile's `limits` every attempt first takes a lease of the run's coordinator (the
 * rate and concurrency bounds, across workers; the wait for it is not the target's time), and a
 * 429 that is not ACCESS_EXCEEDED is waited out (Retry-After) and retried `limits.retries` times;
 * one that persists throws "rate limited", which the caller judges broken. Without limits the
 * exchange is exactly one attempt, as it always was.
 */
export async function exchangeOnWire(r: WireRequest, dispatcher: Dispatcher): Promise<WireAnswer> {
  const limits = r.limits ?? undefined;
  if (!limits) return exchangeOnce(r, dispatcher);
  const g = gate(limits);
  for (let attempt = 0; ; attempt++) {
    const release = await g.acquire();
    let answer: WireAnswer;
    try {
      answer = await exchangeOnce(r, dispatcher);
    } finally {
      release();
    }
    if (answer.status !== 429 || isAccessExceeded(answer)) return answer;
    const retryAfter = answer.headers['retry-after'];
    const wait = attempt < limits.retries ? retryWaitMs(retryAfter, attempt, limits.maxRetryAfterMs) : undefined;
    if (wait === undefined) {
      g.note('rate-limited');
      const why =
        attempt < limits.retries
          ? `its Retry-After (${retryAfter}) is beyond limits.maxRetryAfterMs (${limits.maxRetryAfterMs} ms)`
          : `still 429 after ${attempt} ${attempt === 1 ? 'retry' : 'retries'} (limits.retries)`;
      throw new WireError(
        `rate limited: 429 Too Many Requests${retryAfter ? `, Retry-After ${retryAfter}` : ''}; ${why}`,
      );
    }
    g.note('retried');
    await new Promise((done) => setTimeout(done, wait));
  }
}

async function exchangeOnce(r: WireRequest, dispatcher: Dispatcher): Promise<WireAnswer> {
  const cap = r.maxBodyBytes ?? MAX_BODY_BYTES;
  // A timer of our own, cleared when the exchange ends: AbortSignal.timeout's would fire after
  // every exchange all the same, building a TimeoutError (and its stack) for a call long answered.
  const abort = new AbortController();
  const { signal } = abort;
  const timer = setTimeout(() => abort.abort(), r.timeoutMs);
  try {
    const res = await request(r.url, {
      method: r.method as Dispatcher.HttpMethod,
      headers: r.headers,
      body: r.body,
      dispatcher,
      signal,
      headersTimeout: r.timeoutMs,
      bodyTimeout: r.timeoutMs,
    });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    const announced = Number(headers['content-length']);
    const chunks: Buffer[] = [];
    let bytes = 0;
    let tooLarge = Number.isFinite(announced) && announced > cap;
    if (tooLarge) res.body.destroy();
    else {
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        if (bytes + chunk.length > cap) {
          chunks.push(chunk.subarray(0, cap - bytes));
          bytes += chunk.length;
          tooLarge = true;
          break; // leaving the loop destroys the stream and its connection
        }
        chunks.push(chunk);
        bytes += chunk.length;
      }
    }
    const answer: WireAnswer = {
      status: res.statusCode,
      statusText: STATUS_CODES[res.statusCode] ?? '',
      headers,
      body: Buffer.concat(chunks),
      tooLarge,
      bytes,
      announcedBytes: Number.isFinite(announced) ? announced : undefined,
    };
    return tooLarge ? answer : decodeContent(answer, r, cap);
  } catch (err) {
    if (err instanceof WireError) throw err;
    if (signal.aborted) throw new WireError(`timed out after ${r.timeoutMs} ms (REQUEST_TIMEOUT_MS)`);
    const e = err as Error & { code?: string; cause?: Error & { code?: string } };
    const detail = [e.code, e.message, e.cause && `${e.cause.code ?? ''} ${e.cause.message}`.trim()]
      .filter(Boolean)
      .join(': ');
    throw new WireError(detail || String(err));
  } finally {
    clearTimeout(timer);
  }
}

/** The content codings undone (RFC 9110 8.4.1), by name; `deflate` is zlib's format, raw deflate taken too. */
const DECODERS: Record<string, (b: Buffer, max: number) => Buffer> = {
  gzip: (b, max) => gunzipSync(b, { maxOutputLength: max }),
  'x-gzip': (b, max) => gunzipSync(b, { maxOutputLength: max }),
  deflate: (b, max) => {
    try {
      return inflateSync(b, { maxOutputLength: max });
    } catch (e) {
      if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw e;
      return inflateRawSync(b, { maxOutputLength: max });
    }
  },
  br: (b, max) => brotliDecompressSync(b, { maxOutputLength: max }),
};

/**
 * Undoes the content codings of an answer (Content-Encoding), the last applied first, whether or
 * not the request sent Accept-Encoding: RFC 9110 lets a server (or a gateway before it) send a
 * coding unasked, and the suite judges the bank's answer, not its gateway's compression. A coding
 * the suite cannot undo, or a body that does not decode, is no usable answer: a WireError that says
 * so in words (never the compressed bytes). A decoded body over the cap is cut there, as a long one is.
 */
export function decodeContent(answer: WireAnswer, r: Pick<WireRequest, 'headers'>, cap: number): WireAnswer {
  const codings = (answer.headers['content-encoding'] ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== 'identity');
  if (!codings.length || !answer.body.length) return answer;
  const asked = Object.entries(r.headers).find(([k]) => k.toLowerCase() === 'accept-encoding')?.[1];
  const unasked = asked === undefined ? 'unasked (the request sent no Accept-Encoding)' : `(Accept-Encoding: ${asked})`;
  const unknown = codings.filter((c) => !DECODERS[c]);
  if (unknown.length)
    throw new WireError(
      `the answer (HTTP ${answer.status}) is compressed ${unasked} with Content-Encoding ${codings.join(', ')}, which the suite cannot decode (it decodes ${Object.keys(DECODERS).join(', ')}); ${answer.body.length} bytes not read`,
    );
  let body = answer.body;
  for (const coding of [...codings].reverse()) {
    try {
      body = DECODERS[coding](body, cap);
    } catch (e) {
      if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
        return { ...answer, body: Buffer.alloc(0), tooLarge: true, decoded: codings };
      throw new WireError(
        `the answer (HTTP ${answer.status}) says Content-Encoding ${codings.join(', ')} (sent ${unasked}), but its ${answer.body.length} bytes do not decode as ${coding}: ${(e as Error).message}`,
      );
    }
  }
  return { ...answer, body, decoded: codings };
}
