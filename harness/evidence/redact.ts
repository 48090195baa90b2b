/**
 * The one redaction step of the evidence path: everything that leaves the suite (attachments,
 * failure messages, reports) passes through here. Secrets never appear in clear.
 */
export const REDACTED = '[redacted]';

const SECRET_HEADERS = new Set([
  'authorization',
  'psu-id',
  'psu-corporate-id',
  'signature',
  'cookie',
  'set-cookie',
  'proxy-authorization',
]);
const SECRET_JSON_FIELDS = [
  'access_token',
  'refresh_token',
  'id_token',
  'client_secret',
  'password',
  'encryptedPassword',
];
// In forms and query strings `code` is the OAuth authorisation code; in JSON it is a tppMessage code.
const SECRET_FORM_FIELDS = [...SECRET_JSON_FIELDS, 'code'];

/** Values known to be secret at run time (client secret, tokens, PSU ids). */
const knownSecrets = new Set<string>();
/** The known secrets, longest first (a secret inside a longer one is not cut out of it first); made again when one is added. */
let longestFirst: string[] = [];

export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 4 && !knownSecrets.has(value)) {
    knownSecrets.add(value);
    longestFirst = [...knownSecrets].sort((a, b) => b.length - a.length);
  }
}

// Made once: redactText runs on every header, URL and body of every exchange of the evidence.
const JSON_FIELD = new RegExp(`("(?:${SECRET_JSON_FIELDS.join('|')})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'g');
const FORM_FIELD = new RegExp(`(^|[?&\\s])(${SECRET_FORM_FIELDS.join('|')})=([^&\\s"]*)`, 'g');
const SIGNATURE = /(signature=")[^"]*"/gi;
const PRIVATE_KEY = /-----BEGIN ([A-Z ]*)PRIVATE KEY-----[\s\S]*?-----END \1PRIVATE KEY-----/g;
const BEARER = /(Bearer\s+)[A-Za-z0-9\-._~+/=]+/g;

export function redactText(text: string): string {
  let out = text;
  for (const secret of longestFirst) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  // JSON fields
  out = out.replace(JSON_FIELD, `$1"${REDACTED}"`);
  // form and query fields
  out = out.replace(FORM_FIELD, `$1$2=${REDACTED}`);
  // signature values (Authentication 6) and PEM private keys anywhere
  out = out.replace(SIGNATURE, `$1${REDACTED}"`);
  out = out.replace(PRIVATE_KEY, REDACTED);
  // bearer tokens anywhere
  out = out.replace(BEARER, `$1${REDACTED}`);
  return out;
}

export function redactHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) {
    const lower = k.toLowerCase();
    if (SECRET_HEADERS.has(lower))
      out[k] = lower === 'authorization' && /^bearer\s/i.test(v) ? `Bearer ${REDACTED}` : REDACTED;
    else out[k] = redactText(v);
  }
  return out;
}

export function redactUrl(url: string): string {
  return redactText(url);
}
