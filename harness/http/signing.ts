import {
  createHash,
  createPrivateKey,
  generateKeyPair,
  sign,
  X509Certificate as NodeX509,
  type KeyObject,
} from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cavage } from 'http-message-signatures';
import { ConfigError } from '../config/errors.js';
import type { Settings } from '../config/settings.js';
import { readCertificates, readPrivateKey } from './tls.js';

/**
 * Application-level request signing (Authentication 6), as the reference facts spell it out
 * ("Certificates and request signing"): draft-cavage-http-signatures version 10 without
 * `(request-target)`, `rsa-sha256`, keyId `SN=<serial, hex>,CA=<issuer DN>`, a `Digest` of the
 * exact body bytes, and the certificate in `TPP-Signature-Certificate`. The signing string and the
 * Signature header are http-message-signatures' cavage implementation; X.509 is Node's, and
 * @peculiar/x509's for an issuer name Node does not print as RFC 4514 does (loaded only then).
 */
export interface SigningIdentity {
  key: KeyObject;
  /** The certificate, base64 DER (the TPP-Signature-Certificate value). */
  certificate: string;
  keyId: string;
}

/** Headers signed when the request carries them, after digest and x-request-id (reference facts). */
const SIGNED_WHEN_PRESENT = ['psu-id', 'psu-corporate-id', 'tpp-redirect-uri', 'date'];
export const SIGNING_HEADERS = ['Digest', 'Signature', 'TPP-Signature-Certificate'];

/** `SHA-256=<base64>` of the exact body bytes (the empty string for a request without a body). */
export function digestOf(body: string | Buffer | undefined): string {
  return `SHA-256=${createHash('sha256')
    .update(body ?? '')
    .digest('base64')}`;
}

/** Attribute types Node and RFC 4514 (@peculiar/x509) name alike. */
const PLAIN_ATTRIBUTE = /^(CN|O|OU|C|L|ST)=([ -~]*)$/;
/** Characters RFC 4514 escapes in a value (anywhere, or leading `#` and spaces, trailing spaces). */
const ESCAPED = /[,+"\\<>;=]|^[# ]| $/;

/**
 * The issuer as RFC 4514 writes it (`CN=…, O=…, C=…`, in the certificate's order, as
 * @peculiar/x509 prints it), from Node's one-attribute-a-line text; undefined when a line is
 * anything but a plain attribute of the common types with a value that needs no escaping (a
 * multi-valued name, an OID, another type, a non-ASCII or escaped value): then Node's text and
 * RFC 4514's may differ.
 */
export function plainIssuerOf(nodeIssuer: string): string | undefined {
  const lines = nodeIssuer.split('\n');
  if (!lines.every((l) => PLAIN_ATTRIBUTE.test(l) && !ESCAPED.test(l.slice(l.indexOf('=') + 1)))) return undefined;
  return lines.join(', ');
}

/** The RFC 4514 issuer of @peculiar/x509 (a few hundred milliseconds to load: only when Node's text will not do). */
function rfc4514IssuerOf(certPem: string): string {
  const load = createRequire(import.meta.url);
  load('reflect-metadata');
  const { X509Certificate } = load('@peculiar/x509') as typeof import('@peculiar/x509');
  return new X509Certificate(certPem).issuer;
}

/** `SN=<serial, hexadecimal>,CA=<issuer distinguished name>` of a certificate. */
export function keyIdOf(certPem: string): string {
  const cert = new NodeX509(certPem);
  const issuer = plainIssuerOf(cert.issuer) ?? rfc4514IssuerOf(certPem);
  return `SN=${cert.serialNumber.replace(/^0+(?=.)/, '').toUpperCase()},CA=${issuer}`;
}

/** An identity from PEM texts: the certificate's first PEM block and a key (already opened). */
export function identityOf(certPem: string, key: KeyObject): SigningIdentity {
  return { key, certificate: new NodeX509(certPem).raw.toString('base64'), keyId: keyIdOf(certPem) };
}

/** The signing identity of the settings (TPP_SIGNING_KEY_FILE, TPP_SIGNING_CERT_FILE), checked. */
export function readSigning(s: Settings): SigningIdentity | undefined {
  if (!s.TPP_SIGNING_KEY_FILE !== !s.TPP_SIGNING_CERT_FILE) {
    throw new ConfigError('TPP_SIGNING_KEY_FILE and TPP_SIGNING_CERT_FILE: set both (request signing) or neither.');
  }
  if (!s.TPP_SIGNING_KEY_FILE) return undefined;
  const [certPem] = readCertificates('TPP_SIGNING_CERT_FILE', s.TPP_SIGNING_CERT_FILE);
  const pem = readPrivateKey(
    'TPP_SIGNING_KEY_FILE',
    s.TPP_SIGNING_KEY_FILE,
    s.TPP_SIGNING_KEY_PASSPHRASE,
    'TPP_SIGNING_KEY_PASSPHRASE',
  );
  const key = createPrivateKey({ key: pem, passphrase: s.TPP_SIGNING_KEY_PASSPHRASE || undefined });
  if (key.asymmetricKeyType !== 'rsa') {
    throw new ConfigError(`TPP_SIGNING_KEY_FILE: an RSA key is needed for rsa-sha256, got ${key.asymmetricKeyType}.`);
  }
  if (!new NodeX509(certPem).checkPrivateKey(key)) {
    throw new ConfigError('TPP_SIGNING_KEY_FILE: the key does not belong to the certificate of TPP_SIGNING_CERT_FILE.');
  }
  return identityOf(certPem, key);
}

export interface SignOptions {
  /** Sign as another identity (another certificate, or a key that is not the certificate's). */
  as?: SigningIdentity;
  /** The body the Digest and Signature are made for, when it is not the one sent (a tampered body). */
  bodySigned?: string;
  /** A Digest header to send (and sign) instead of the body's own. */
  digest?: string;
  /**
   * Signing headers left out of a call otherwise signed correctly: `Digest` is then neither sent nor
   * signed (the headers list starts with x-request-id); `TPP-Signature-Certificate` is not sent.
   */
  without?: ('Digest' | 'TPP-Signature-Certificate')[];
  /** Rewrites the Signature header once made (a signature correct in all but its form). */
  signature?: (header: string) => string;
}

/**
 * Adds Digest, Signature and TPP-Signature-Certificate to `headers` (in place) for `body`.
 * The headers list holds digest, x-request-id when sent, and psu-id, psu-corporate-id,
 * tpp-redirect-uri and date when the request carries them.
 */
export async function signRequest(
  method: string,
  url: string,
  headers: Record<string, string>,
  body: string | undefined,
  identity: SigningIdentity,
  o: SignOptions = {},
): Promise<void> {
  const who = o.as ?? identity;
  for (const name of Object.keys(headers)) {
    if (SIGNING_HEADERS.some((h) => h.toLowerCase() === name.toLowerCase())) delete headers[name];
  }
  const noDigest = o.without?.includes('Digest') ?? false;
  if (!noDigest) headers.Digest = o.digest ?? digestOf(o.bodySigned ?? body);
  const present = new Set(Object.keys(headers).map((h) => h.toLowerCase()));
  const fields = [
    ...(noDigest ? [] : ['digest']),
    ...['x-request-id', ...SIGNED_WHEN_PRESENT].filter((h) => present.has(h)),
  ];
  const signed = await cavage.signMessage(
    {
      key: { id: who.keyId, alg: 'rsa-v1_5-sha256', sign: async (data: Buffer) => sign('sha256', data, who.key) },
      params: ['keyid', 'alg'],
      fields,
    },
    { method, url, headers },
  );
  headers.Signature = o.signature
    ? o.signature(signed.headers.Signature as string)
    : (signed.headers.Signature as string);
  if (!o.without?.includes('TPP-Signature-Certificate')) headers['TPP-Signature-Certificate'] = who.certificate;
}

/** A TPP identity of a test PKI folder in the sandbox's layout (`<name>.pem`, `<name>.key`). */
export function testIdentity(dir: string, name: 'tpp' | 'tpp-ais' | 'tpp-norole' | 'tpp-expired'): SigningIdentity {
  const read = (ext: string) => readFileSync(join(dir, `${name}.${ext}`), 'utf8');
  return identityOf(read('pem'), createPrivateKey(read('key')));
}

/** The identity with a fresh key that is not its certificate's (a signature by another key). */
export async function withForeignKey(identity: SigningIdentity): Promise<SigningIdentity> {
  // Made off the event loop: a blocked loop misses a keep-alive connection's close and reuses it.
  const { privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  return { ...identity, key: privateKey };
}
