/** A Berlin Group error: the HTTP status and one tppMessage (reference-facts, HTTP status and codes). */
export class BgError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly text: string,
    readonly path?: string,
  ) {
    super(`${status} ${code}: ${text}`);
    this.name = 'BgError';
  }
}

export interface TppMessage {
  category: 'ERROR' | 'WARNING' | 'INFORMATION';
  code: string;
  path?: string;
  text?: string;
}

export const errorBody = (e: BgError): { tppMessages: TppMessage[] } => ({
  tppMessages: [{ category: 'ERROR', code: e.code, ...(e.path ? { path: e.path } : {}), text: e.text }],
});

/** Statuses whose answer carries headers only (BG): no tppMessages body. */
export const HEADERS_ONLY = new Set([408, 415, 500, 503]);

export const formatError = (text: string, path?: string) => new BgError(400, 'FORMAT_ERROR', text, path);

/** An OAuth 2.0 error body of the authorisation server (RFC 6749 5.2). */
export const oauthError = (error: string, description: string) => ({ error, error_description: description });
