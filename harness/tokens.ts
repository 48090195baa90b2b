import type { Target } from './config/target.js';
import { registerSecret } from './evidence/redact.js';
import { TargetBroken } from './http/broken.js';
import type { Exchange } from './http/response.js';
import { exchangeOnWire } from './http/transport.js';

/** The full scope: an API scope plus the profile's PSU context scope (Authentication 2). */
export function fullScope(target: Target, scope: string): string {
  return scope.includes(' ') ? scope : `${scope} ${target.profile.psuContext}`;
}

/**
 * Application tokens by OAuth2 client credentials at {auth_url}/connect/token, cached per
 * scope for the worker; or the static ACCESS_TOKEN of the settings.
 */
export class TokenCache {
  private readonly cache = new Map<string, { token: string; expiresAt: number }>();

  constructor(private readonly target: Target) {}

  async get(scope: string, record?: (e: Exchange) => void): Promise<string> {
    if (this.target.accessToken) return this.target.accessToken;
    const full = fullScope(this.target, scope);
    const hit = this.cache.get(full);
    if (hit && hit.expiresAt > Date.now() + 5_000) return hit.token;
    const token = await this.fetch(full, record);
    return token;
  }

  private async fetch(scope: string, record?: (e: Exchange) => void): Promise<string> {
    const url = `${this.target.authUrl}/connect/token`;
    const form = {
      grant_type: 'client_credentials',
      client_id: this.target.clientId,
      client_secret: this.target.clientSecret,
      scope,
    };
    const started = Date.now();
    const exchange: Exchange = {
      seq: 0,
      method: 'POST',
      url,
      requestHeaders: { 'Content-Type': 'application/x-www-form-urlencoded' },
      requestBody: new URLSearchParams(form).toString(),
      durationMs: 0,
      startedAt: new Date(started).toISOString(),
    };
    let status = 0;
    let text = '';
    try {
      const res = await exchangeOnWire({
        method: 'POST',
        url,
        headers: exchange.requestHeaders,
        body: exchange.requestBody,
        timeoutMs: this.target.timeouts.requestMs,
        maxBodyBytes: 64 * 1024,
      });
      status = res.status;
      text = res.body.toString('utf8');
      Object.assign(exchange, { status, statusText: res.statusText, responseHeaders: res.headers, responseBody: text });
    } catch (err) {
      exchange.error = (err as Error).message.split('\n')[0];
    }
    exchange.durationMs = Date.now() - started;
    let token: string | undefined;
    let expiresIn = 300;
    try {
      const body = JSON.parse(text) as { access_token?: unknown; expires_in?: unknown };
      if (typeof body.access_token === 'string' && body.access_token) token = body.access_token;
      if (typeof body.expires_in === 'number') expiresIn = body.expires_in;
    } catch {
      /* judged below */
    }
    registerSecret(token);
    record?.(exchange);
    if (!token || status !== 200) {
      throw new TargetBroken(
        `no application token for scope "${scope}" from POST ${new URL(url).pathname}: ${
          exchange.error ?? `HTTP ${status}, body ${text.slice(0, 200) || '(empty)'}`
        }`,
      );
    }
    this.cache.set(scope, { token, expiresAt: Date.now() + expiresIn * 1000 });
    return token;
  }
}
