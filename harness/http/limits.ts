import { connect, createServer, type Server, type Socket } from 'node:net';
import PQueue from 'p-queue';
import type { Profile } from '../config/profile.js';
import { ENV } from '../config/env-names.mjs';
import { internal } from '../config/user-settings.mjs';

/** The profile's `limits`, with their defaults: how hard the run may press the target. */
export interface Limits {
  /** Most requests started in any one second by the whole run; absent: no bound. */
  requestsPerSecond?: number;
  /** Most requests in flight at once across the run; absent: no bound. */
  concurrency?: number;
  /** Retries of a rate-limited request before it is judged broken. */
  retries: number;
  /** Longest wait before one retry. */
  maxRetryAfterMs: number;
}

/** The profile's limits, or undefined when it sets none (then nothing is bounded or retried). */
export function limitsOf(profile: Pick<Profile, 'limits'>): Limits | undefined {
  const l = profile.limits;
  if (!l) return undefined;
  return {
    ...(l.requestsPerSecond !== undefined ? { requestsPerSecond: l.requestsPerSecond } : {}),
    ...(l.concurrency !== undefined ? { concurrency: l.concurrency } : {}),
    retries: l.retries,
    maxRetryAfterMs: l.maxRetryAfterMs,
  };
}

/** Ends a lease on one request: call it when the exchange is over (answer read or failed). */
export type Release = () => void;

/** What the run's requests looked like towards the target, for conformance.json (`limits`). */
export interface LimitStats {
  /** The profile's bounds (null: none). */
  requestsPerSecond: number | null;
  concurrency: number | null;
  /** Requests started (retries and token calls included). */
  requests: number;
  /** From the first request's start to the last's, in ms. */
  spanMs: number;
  /** requests / span, per second (the whole run's mean rate). */
  averagePerSecond: number;
  /** Most requests started within any one second (a sliding window): the figure the bound holds. */
  peakPerSecond: number;
  /** Most requests in flight at once. */
  peakConcurrency: number;
  /** Rate-limited answers (429) waited out and retried. */
  retried: number;
  /** Requests given up as rate limited (broken verdicts). */
  rateLimited: number;
}

export type LimitNote = 'retried' | 'rate-limited';

/** Where a worker gets its leases: the run's one coordinator, in this process or over a socket. */
export interface Gate {
  acquire(): Promise<Release>;
  note(what: LimitNote): void;
}

/** Set by the run's global setup for the workers: the coordinator's address (host:port). */
const KEY = Symbol.for('obg-conformance.limiter');
const REMOTE = Symbol.for('obg-conformance.limiter.remote');
type Registry = { [KEY]?: Coordinator; [REMOTE]?: RemoteGate };
const registry = globalThis as unknown as Registry;

/**
 * The one place that lets requests go to the target: p-queue's sliding window (`strict`) spaces
 * starts at least 1/requestsPerSecond apart, and its concurrency bounds the requests in flight.
 * A lease is held from the start of a request to the end of its answer.
 */
export class Coordinator implements Gate {
  private readonly queue: PQueue;
  private readonly starts: number[] = [];
  /** The least time between two starts (ms; 0: no rate bound), held on this clock as well as p-queue's. */
  private readonly spacingMs: number;
  private inFlight = 0;
  private peakInFlight = 0;
  private retried = 0;
  private rateLimited = 0;
  private server?: Server;

  constructor(readonly limits: Limits) {
    const rps = limits.requestsPerSecond;
    this.spacingMs = rps ? Math.ceil(1000 / rps) : 0;
    this.queue = new PQueue({
      ...(limits.concurrency ? { concurrency: limits.concurrency } : {}),
      // Even spacing rather than bursts of a whole second's worth: kinder to the target's own window.
      ...(rps ? { intervalCap: 1, interval: this.spacingMs, strict: true } : {}),
    });
  }

  acquire(): Promise<Release> {
    return new Promise<Release>((granted) => {
      void this.queue.add(
        () =>
          new Promise<void>((done) => {
            this.whenSpaced(() => {
              this.starts.push(Date.now());
              this.inFlight += 1;
              this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
              let open = true;
              granted(() => {
                if (!open) return;
                open = false;
                this.inFlight -= 1;
                done();
              });
            });
          }),
      );
    });
  }

  /**
   * Runs `start` once the last start is at least the spacing behind on the clock the starts are
   * recorded with: p-queue spaces its jobs on its own reading of the time, and a job it runs late
   * (a busy process) would otherwise record a start closer than the spacing to the next one.
   */
  private whenSpaced(start: () => void): void {
    const last = this.starts.at(-1);
    const wait = last === undefined ? 0 : last + this.spacingMs - Date.now();
    if (wait <= 0) return start();
    setTimeout(() => this.whenSpaced(start), wait);
  }

  note(what: LimitNote): void {
    if (what === 'retried') this.retried += 1;
    else this.rateLimited += 1;
  }

  stats(): LimitStats {
    const s = this.starts;
    const spanMs = s.length > 1 ? s[s.length - 1] - s[0] : 0;
    let peak = 0;
    for (let i = 0, j = 0; j < s.length; j++) {
      while (s[j] - s[i] >= 1000) i++;
      peak = Math.max(peak, j - i + 1);
    }
    return {
      requestsPerSecond: this.limits.requestsPerSecond ?? null,
      concurrency: this.limits.concurrency ?? null,
      requests: s.length,
      spanMs,
      averagePerSecond: spanMs > 0 ? Math.round((s.length / (spanMs / 1000)) * 100) / 100 : s.length,
      peakPerSecond: peak,
      peakConcurrency: this.peakInFlight,
      retried: this.retried,
      rateLimited: this.rateLimited,
    };
  }

  /**
   * Serves leases to the run's workers on a loopback socket, one line per message:
   * `a <id>` asks, `g <id>` grants, `r <id>` releases, `n retried|rate-limited` notes. A worker
   * that goes away releases what it held. Returns the address for ENV.limiter.
   */
  async serve(): Promise<string> {
    const server = createServer((socket) => {
      const held = new Map<string, Release>();
      let closed = false;
      socket.on('close', () => {
        closed = true;
        for (const release of held.values()) release();
        held.clear();
      });
      socket.on('error', () => socket.destroy());
      lines(socket, (line) => {
        const [verb, arg] = line.split(' ');
        if (verb === 'a') {
          void this.acquire().then((release) => {
            if (closed) return release();
            held.set(arg, release);
            socket.write(`g ${arg}\n`);
          });
        } else if (verb === 'r') {
          held.get(arg)?.();
          held.delete(arg);
        } else if (verb === 'n' && (arg === 'retried' || arg === 'rate-limited')) this.note(arg);
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    server.unref();
    this.server = server;
    const { port } = server.address() as { port: number };
    return `127.0.0.1:${port}`;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((done) => server.close(() => done()));
  }
}

function lines(socket: Socket, onLine: (line: string) => void): void {
  let buffer = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      onLine(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
    }
  });
}

/** A worker's side of the coordinator's socket. */
class RemoteGate implements Gate {
  private readonly socket: Socket;
  private readonly waiting = new Map<string, { granted: (r: Release) => void; failed: (e: Error) => void }>();
  private next = 0;
  private broken?: Error;

  constructor(address: string) {
    const [host, port] = address.split(':');
    this.socket = connect(Number(port), host);
    this.socket.setNoDelay(true);
    this.socket.unref();
    const fail = (e: Error) => {
      this.broken = new Error(`the run's request limiter (${ENV.limiter}=${address}) is gone: ${e.message}`);
      for (const w of this.waiting.values()) w.failed(this.broken);
      this.waiting.clear();
    };
    this.socket.on('error', fail);
    this.socket.on('close', () => fail(new Error('connection closed')));
    lines(this.socket, (line) => {
      const [verb, id] = line.split(' ');
      const w = verb === 'g' ? this.waiting.get(id) : undefined;
      if (!w) return;
      this.waiting.delete(id);
      let open = true;
      w.granted(() => {
        if (!open) return;
        open = false;
        if (!this.broken) this.socket.write(`r ${id}\n`);
      });
    });
  }

  acquire(): Promise<Release> {
    if (this.broken) return Promise.reject(this.broken);
    const id = String(++this.next);
    return new Promise<Release>((granted, failed) => {
      this.waiting.set(id, { granted, failed });
      this.socket.write(`a ${id}\n`);
    });
  }

  note(what: LimitNote): void {
    if (!this.broken) this.socket.write(`n ${what}\n`);
  }
}

/**
 * The run's coordinator, made in this process (the global setup's, or a lone script's); the
 * global setup serves it to the workers.
 */
export function coordinator(limits: Limits): Coordinator {
  registry[KEY] ??= new Coordinator(limits);
  return registry[KEY];
}

/** This process's gate: the coordinator when it lives here, else the one the global setup serves, else a local one. */
export function gate(limits: Limits): Gate {
  if (registry[KEY]) return registry[KEY];
  const address = internal('limiter');
  if (address) return (registry[REMOTE] ??= new RemoteGate(address));
  return coordinator(limits);
}

/** The run's figures, when this process holds its coordinator (the runner: global setup and reporters). */
export function limitStats(): LimitStats | undefined {
  return registry[KEY]?.stats();
}

/**
 * How long to wait before retrying a 429, from its Retry-After (delay-seconds or an HTTP-date),
 * or 1 s doubling per retry when it has none; undefined when the wait would pass `maxMs`.
 */
export function retryWaitMs(
  retryAfter: string | undefined,
  attempt: number,
  maxMs: number,
  now = Date.now(),
): number | undefined {
  let wait: number;
  const value = retryAfter?.trim();
  if (!value) wait = 1000 * 2 ** attempt;
  else if (/^\d+$/.test(value)) wait = Number(value) * 1000;
  else {
    const at = Date.parse(value);
    if (Number.isNaN(at)) wait = 1000 * 2 ** attempt;
    else wait = Math.max(0, at - now);
  }
  if (!value) return Math.min(wait, maxMs);
  return wait <= maxMs ? wait : undefined;
}
