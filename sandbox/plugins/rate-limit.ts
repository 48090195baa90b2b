import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** A shared, rate-limited sandbox: at most `perSecond` requests accepted in any one second. */
export interface RateLimitOptions {
  perSecond: number;
}

/** What the limiter did, for the self-tests. */
export interface RateLimitStats {
  accepted: number;
  limited: number;
  /** Most requests accepted within any one second. */
  peakPerSecond: number;
}

const statsOf = new WeakMap<FastifyInstance, RateLimitStats>();

/** The rate limiter's figures of a sandbox built with `rateLimit`, or undefined. */
export const rateLimitStats = (app: FastifyInstance): RateLimitStats | undefined => statsOf.get(app);

/**
 * Answers 429 Too Many Requests with `Retry-After` (seconds until the window has room) to any
 * request beyond `perSecond` accepted in the last second (a sliding window over every client,
 * the token endpoint included; /health is never limited). A refused request does not count, so
 * a client that waits as told gets in. The specification shows no rate limits ("Rate limits,
 * quotas and request size limits: not shown"); a real bank's shared sandbox has them.
 */
export function installRateLimit(app: FastifyInstance, options: RateLimitOptions): RateLimitStats {
  const stats: RateLimitStats = { accepted: 0, limited: 0, peakPerSecond: 0 };
  statsOf.set(app, stats);
  const windowMs = 1000;
  const accepted: number[] = [];
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.url === '/health') return;
    const now = Date.now();
    while (accepted.length && now - accepted[0] >= windowMs) accepted.shift();
    if (accepted.length >= options.perSecond) {
      stats.limited += 1;
      const seconds = Math.max(1, Math.ceil((accepted[0] + windowMs - now) / 1000));
      return reply
        .code(429)
        .header('Retry-After', String(seconds))
        .header('Content-Type', 'application/json')
        .send({
          tppMessages: [
            {
              category: 'ERROR',
              code: 'TOO_MANY_REQUESTS',
              text: `more than ${options.perSecond} requests in one second; retry after ${seconds} s`,
            },
          ],
        });
    }
    accepted.push(now);
    stats.accepted += 1;
    stats.peakPerSecond = Math.max(stats.peakPerSecond, accepted.length);
  });
  return stats;
}
