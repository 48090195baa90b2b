import 'reflect-metadata';
import { createHash, verify } from 'node:crypto';
import { Readable } from 'node:stream';
import { X509Certificate } from '@peculiar/x509';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { cavage } from 'http-message-signatures';
import { BgError } from '../errors.js';
import { psd2RolesOf, type Psd2Role, type TestPki } from '../tls/pki.js';

export type SigningMode = 'verify' | 'required';

/** Checks a fault may switch off (sandbox/faults/headers-signing.ts), per app. */
export type SigningCheck =
  | 'digest-bodyless'
  | 'digest-body'
  | 'signature'
  | 'validity'
  | 'role'
  | 'refuse-all'
  /** No signed call is verified (a bank that only looks at the headers' shape). */
  | 'unverified'
  /** A signed call without Digest is served when its signature holds (the guard's Digest-iff-Signature too). */
  | 'digest-optional'
  /** A Digest of any hash Node knows (MD5, SHA-1) is taken when it matches (the guard's form check too). */
  | 'digest-any-algorithm'
  /** The Signature's algorithm label is not read (the signature is verified as rsa-sha256 whatever it says). */
  | 'signature-algorithm';
const lenient = new WeakMap<FastifyInstance, Set<SigningCheck>>();
export function bendSigning(app: FastifyInstance, check: SigningCheck): void {
  lenient.set(app, (lenient.get(app) ?? new Set()).add(check));
}
/** Whether a fault switched `check` off on this app. */
export const signingBent = (app: FastifyInstance, check: SigningCheck): boolean =>
  lenient.get(app)?.has(check) ?? false;

/** The PSD2 role a service needs (reference facts): payments and baskets PSP_PI, accounts and consents PSP_AI. */
export function roleFor(route: string): Psd2Role | undefined {
  if (/^\/psd2\/paymentinitiation\//.test(route) || /^\/iso\//.test(route)) return 'PSP_PI';
  if (/^\/psd2\/(accountinformation|consent)\//.test(route)) return 'PSP_AI';
  return undefined;
}

/** `name="value"` pairs of a Signature header (a quoted value may hold commas, as a keyId's DN does). */
export function signatureParams(header: string): Map<string, string> | undefined {
  const out = new Map<string, string>();
  const re = /\s*([A-Za-z]+)="([^"]*)"\s*(,|$)/y;
  let m: RegExpExecArray | null;
  let at = 0;
  while (at < header.length && (m = re.exec(header))) {
    if (out.has(m[1])) return undefined;
    out.set(m[1], m[2]);
    at = re.lastIndex;
  }
  return at === header.length ? out : undefined;
}

const hex = (s: string) => s.replace(/^0+(?=.)/, '').toUpperCase();
const dn = (s: string) => s.replace(/\s*,\s*/g, ',').toLowerCase();
const invalid = (text: string) => new BgError(401, 'SIGNATURE_INVALID', text);
const certificateInvalid = (text: string) => new BgError(401, 'CERTIFICATE_INVALID', text);

interface CheckedCertificate {
  cert: X509Certificate;
  publicKeyPem: string;
  problem?: BgError;
}

/** The certificate check of TPP-Signature-Certificate (parsed, chained to the test CA), memoised per certificate. */
function certificateChecker(pki: TestPki): (b64: string) => Promise<CheckedCertificate> {
  const seen = new Map<string, Promise<CheckedCertificate>>();
  return (b64: string): Promise<CheckedCertificate> => {
    let p = seen.get(b64);
    if (!p) {
      p = (async () => {
        let cert: X509Certificate;
        try {
          cert = new X509Certificate(Buffer.from(b64, 'base64'));
        } catch {
          throw certificateInvalid('TPP-Signature-Certificate is not a base64 DER certificate');
        }
        const publicKeyPem = cert.publicKey.toString('pem');
        const chained =
          cert.issuer === pki.ca.subject && (await cert.verify({ publicKey: pki.ca.publicKey, signatureOnly: true }));
        if (!chained)
          return { cert, publicKeyPem, problem: certificateInvalid('the certificate is not issued by a trusted CA') };
        return { cert, publicKeyPem };
      })();
      if (seen.size > 1000) seen.clear();
      seen.set(b64, p);
    }
    return p;
  };
}

/** The Signature's parameters and the headers it lists, each required one among them. */
function signedHeaders(req: FastifyRequest, signature: string, off: Set<SigningCheck>) {
  const params = signatureParams(signature);
  if (!params?.get('signature') || !params.get('keyId') || !params.get('headers'))
    throw invalid('Signature must carry keyId, algorithm, headers and signature');
  if (!off.has('signature-algorithm') && params.get('algorithm') !== 'rsa-sha256')
    throw invalid('Signature algorithm must be rsa-sha256');
  const listed = params.get('headers')!.toLowerCase().split(/\s+/).filter(Boolean);
  const digestless = off.has('digest-optional') && req.headers.digest === undefined;
  const required = [
    ...(digestless ? [] : ['digest']),
    'x-request-id',
    ...['psu-id', 'psu-corporate-id', 'tpp-redirect-uri', 'date'].filter((h) => req.headers[h] !== undefined),
  ];
  const missing = required.filter((h) => !listed.includes(h));
  if (missing.length) throw invalid(`the Signature's headers list lacks ${missing.join(', ')}`);
  return { params, listed, digestless };
}

/** The Digest matches the exact body bytes (SHA-256 or SHA-512), unless a fault or a digestless call skips it. */
function assertDigest(req: FastifyRequest, body: Buffer, digestless: boolean, off: Set<SigningCheck>): void {
  const digest = String(req.headers.digest ?? '');
  const [alg, value] = [digest.slice(0, digest.indexOf('=')), digest.slice(digest.indexOf('=') + 1)];
  const algo =
    { 'SHA-256': 'sha256', 'SHA-512': 'sha512' }[alg.toUpperCase()] ??
    (off.has('digest-any-algorithm') ? alg.toLowerCase().replace('-', '') : undefined);
  const skip = digestless || off.has(body.length ? 'digest-body' : 'digest-bodyless');
  if (!skip && (!algo || createHash(algo).update(body).digest('base64') !== value))
    throw invalid('the Digest does not match the body');
}

/** The draft-cavage signature base of the listed headers. */
function signatureBase(req: FastifyRequest, listed: string[]): string {
  try {
    return cavage.formatSignatureBase(
      cavage.createSignatureBase(
        listed,
        { method: req.method, url: `http://sandbox${req.url}`, headers: req.headers as Record<string, string> },
        new Map(),
      ),
    );
  } catch (e) {
    throw invalid(`the signed headers cannot be read: ${(e as Error).message}`);
  }
}

/** The certificate's own rules once the signature holds: its chain, its validity dates, the PSD2 role of the service. */
function assertCertificate(req: FastifyRequest, checked: CheckedCertificate, off: Set<SigningCheck>): void {
  const { cert, problem } = checked;
  if (problem) throw problem;
  const now = new Date();
  if (!off.has('validity') && (cert.notAfter < now || cert.notBefore > now))
    throw new BgError(401, 'CERTIFICATE_EXPIRED', 'TPP-Signature-Certificate is outside its validity dates');
  const role = roleFor(req.routeOptions.url ?? '');
  const roles = psd2RolesOf(cert) ?? [];
  if (role && !off.has('role') && !roles.includes(role))
    throw certificateInvalid(`the certificate's PSD2 roles (${roles.join(', ') || 'none'}) do not include ${role}`);
}

/** Verifies a signed call in full, in this order: the Signature's form, the Digest, the keyId, the signature, the certificate. */
async function verifyCall(
  app: FastifyInstance,
  check: (b64: string) => Promise<CheckedCertificate>,
  req: FastifyRequest,
  signature: string,
  body: Buffer,
): Promise<void> {
  const off = lenient.get(app) ?? new Set<SigningCheck>();
  const { params, listed, digestless } = signedHeaders(req, signature, off);
  assertDigest(req, body, digestless, off);
  const checked = await check(String(req.headers['tpp-signature-certificate'] ?? ''));
  const { cert, publicKeyPem } = checked;
  const keyId = /^SN=([0-9A-Fa-f]+),CA=(.+)$/.exec(params.get('keyId')!);
  if (!keyId || hex(keyId[1]) !== hex(cert.serialNumber) || dn(keyId[2]) !== dn(cert.issuer))
    throw invalid('the keyId does not name the serial number and issuer of TPP-Signature-Certificate');
  const base = signatureBase(req, listed);
  if (
    !off.has('signature') &&
    !verify('sha256', Buffer.from(base), publicKeyPem, Buffer.from(params.get('signature')!, 'base64'))
  )
    throw invalid('the signature does not verify with the key of TPP-Signature-Certificate');
  assertCertificate(req, checked, off);
  if (off.has('refuse-all')) throw invalid('signed calls are not accepted');
}

/**
 * Application-level signing (Authentication 6; reference facts "Certificates and request
 * signing"). A signed API call is verified in full: the Digest against the exact body bytes, the
 * Signature (draft-cavage 10, rsa-sha256) against the key of TPP-Signature-Certificate, the keyId
 * against that certificate, its chain to the test CA, its validity dates, and the PSD2 role the
 * service needs. `required`: an unsigned API call is refused (SIGNATURE_MISSING); the directory
 * too, as a bank that mandates signing does.
 */
export function installSigning(app: FastifyInstance, pki: TestPki, mode: SigningMode): void {
  const check = certificateChecker(pki);
  app.addHook('preParsing', async (req: FastifyRequest, _reply, payload) => {
    const cfg = req.routeOptions.config;
    if (!cfg?.api) return payload;
    const signature = req.headers.signature;
    if (typeof signature !== 'string') {
      if (mode === 'required')
        throw new BgError(401, 'SIGNATURE_MISSING', 'this bank mandates signed requests: header Signature is missing');
      return payload;
    }
    if (lenient.get(app)?.has('unverified')) return payload;
    const chunks: Buffer[] = [];
    for await (const chunk of payload as AsyncIterable<Buffer>) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    await verifyCall(app, check, req, signature, body);
    const again = Readable.from([body]) as Readable & { receivedEncodedLength?: number };
    again.receivedEncodedLength = body.length;
    return again;
  });
}
