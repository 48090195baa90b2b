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

export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 4) knownSecrets.add(value);
}

export function redactText(text: string): string {
  let out = text;
  for (const secret of [...knownSecrets].sort((a, b) => b.length - a.length)) {
    out = out.split(secret).join(REDACTED);
  }
  // JSON fields
  out = out.replace(
    new RegExp(`("(?:${SECRET_JSON_FIELDS.join('|')})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'g'),
    `$1"${REDACTED}"`,
  );
  // form and query fields
  out = out.replace(new RegExp(`(^|[?&\\s])(${SECRET_FORM_FIELDS.join('|')})=([^&\\s"]*)`, 'g'), `$1$2=${REDACTED}`);
  // signature values (Authentication 6) and PEM private keys anywhere
  out = out.replace(/(signature=")[^"]*"/gi, `$1${REDACTED}"`);
  out = out.replace(/-----BEGIN ([A-Z ]*)PRIVATE KEY-----[\s\S]*?-----END \1PRIVATE KEY-----/g, REDACTED);
  // bearer tokens anywhere
  out = out.replace(/(Bearer\s+)[A-Za-z0-9\-._~+/=]+/g, `$1${REDACTED}`);
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
