import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { resolveTarget } from '../../harness/config/target.js';
import { readSettings } from '../../harness/config/settings.js';
import { REDACTED, redactText } from '../../harness/evidence/redact.js';
import {
  digestOf,
  keyIdOf,
  plainIssuerOf,
  readSigning,
  signRequest,
  testIdentity,
} from '../../harness/http/signing.js';
import { readTls } from '../../harness/http/tls.js';
import { ensurePki, psd2RolesOf } from '../../sandbox/tls/pki.js';
import { signatureParams } from '../../sandbox/plugins/signing.js';
import { X509Certificate, X509CertificateGenerator } from '@peculiar/x509';
import { webcrypto } from 'node:crypto';

// TLS and signing settings: a bad file or a passphrase that does not open the key stops the run, naming the key.
const noFile = join(tmpdir(), 'obg-no-such.env');
const settings = (env: Record<string, string>) => readSettings(env, noFile);

test.describe('TLS and signing settings', () => {
  let dir: string;
  let encrypted: string;
  test.beforeAll(async () => {
    const pki = await ensurePki();
    dir = mkdtempSync(join(tmpdir(), 'obg-tls-'));
    encrypted = join(dir, 'tpp-encrypted.key');
    const key = createPrivateKey(readFileSync(pki.file('tppKey'), 'utf8'));
    writeFileSync(
      encrypted,
      key.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'right horse battery' }),
    );
    writeFileSync(join(dir, 'garbage.pem'), 'not a certificate');
  });

  test('an unreadable or empty CA file names TARGET_CA_FILE', () => {
    expect(() => readTls(settings({ TARGET_CA_FILE: join(dir, 'missing.pem') }))).toThrow(
      /^TARGET_CA_FILE: cannot read/,
    );
    expect(() => readTls(settings({ TARGET_CA_FILE: join(dir, 'garbage.pem') }))).toThrow(
      /^TARGET_CA_FILE: .* holds no PEM certificate/,
    );
  });

  test('a client key its passphrase does not open names the key and the passphrase', async () => {
    const pki = await ensurePki();
    const base = { TLS_CLIENT_CERT_FILE: pki.file('tppCert'), TLS_CLIENT_KEY_FILE: encrypted };
    expect(() => readTls(settings({ ...base, TLS_CLIENT_KEY_PASSPHRASE: 'wrong' }))).toThrow(
      /^TLS_CLIENT_KEY_FILE: the key in .* does not open with TLS_CLIENT_KEY_PASSPHRASE/,
    );
    expect(() => readTls(settings(base))).toThrow(/^TLS_CLIENT_KEY_FILE: .*TLS_CLIENT_KEY_PASSPHRASE/);
    const ok = readTls(settings({ ...base, TLS_CLIENT_KEY_PASSPHRASE: 'right horse battery' }));
    expect(ok?.passphrase).toBe('right horse battery');
  });

  test('a client key of another certificate, or half of the pair, is refused', async () => {
    const pki = await ensurePki();
    expect(() =>
      readTls(settings({ TLS_CLIENT_CERT_FILE: pki.file('tppCert'), TLS_CLIENT_KEY_FILE: pki.file('aisKey') })),
    ).toThrow(/^TLS_CLIENT_KEY_FILE: the key does not belong to the certificate/);
    expect(() => readTls(settings({ TLS_CLIENT_CERT_FILE: pki.file('tppCert') }))).toThrow(
      /TLS_CLIENT_CERT_FILE and TLS_CLIENT_KEY_FILE: set both/,
    );
  });

  test("a signing key that is not the certificate's, or a wrong passphrase, names TPP_SIGNING_KEY_FILE", async () => {
    const pki = await ensurePki();
    expect(() =>
      readSigning(settings({ TPP_SIGNING_CERT_FILE: pki.file('tppCert'), TPP_SIGNING_KEY_FILE: pki.file('otherKey') })),
    ).toThrow(/^TPP_SIGNING_KEY_FILE: the key does not belong/);
    expect(() =>
      readSigning(
        settings({
          TPP_SIGNING_CERT_FILE: pki.file('tppCert'),
          TPP_SIGNING_KEY_FILE: encrypted,
          TPP_SIGNING_KEY_PASSPHRASE: 'wrong',
        }),
      ),
    ).toThrow(/^TPP_SIGNING_KEY_FILE: .*TPP_SIGNING_KEY_PASSPHRASE/);
  });

  test('a profile that claims signing without a signing key stops the run', () => {
    expect(() =>
      resolveTarget({
        TARGET_BASE_URL: 'https://bank.example',
        CLIENT_ID: 'c',
        CLIENT_SECRET: 's3cr3t',
        BICFI: 'SBXBSESS',
        TPP_SIGNING_KEY_FILE: '',
        TPP_SIGNING_CERT_FILE: '',
      }),
    ).toThrow(/TPP_SIGNING_KEY_FILE and TPP_SIGNING_CERT_FILE: required when the profile claims the feature "signing"/);
  });
});

test("the signature is the reference facts' signing string, verified with the certificate's key", async () => {
  const pki = await ensurePki();
  const identity = testIdentity(pki.dir, 'tpp');
  const body = '{"access":{"allPsd2":"allAccounts"}}';
  const headers: Record<string, string> = {
    'X-Request-ID': '99391c7e-ad88-49ec-a2ad-99ddcb1f7721',
    'PSU-ID': 'PSU-1234',
    'TPP-Redirect-URI': 'https://tpp.example/cb',
    'Content-Type': 'application/json',
  };
  await signRequest('POST', 'https://bank.example/psd2/consent/v1/consents', headers, body, identity);
  expect(headers.Digest).toBe(`SHA-256=${createHash('sha256').update(body).digest('base64')}`);
  const params = signatureParams(headers.Signature)!;
  const cert = new X509Certificate(readFileSync(pki.file('tppCert'), 'utf8'));
  expect(params.get('keyId')).toBe(`SN=${cert.serialNumber.replace(/^0+/, '').toUpperCase()},CA=${cert.issuer}`);
  expect(params.get('algorithm')).toBe('rsa-sha256');
  expect(params.get('headers')).toBe('digest x-request-id psu-id tpp-redirect-uri');
  // Spelled out by hand here, as the reference facts say: one `name: value` line per listed header, joined with \n.
  const signingString = [
    `digest: ${headers.Digest}`,
    `x-request-id: ${headers['X-Request-ID']}`,
    `psu-id: PSU-1234`,
    `tpp-redirect-uri: https://tpp.example/cb`,
  ].join('\n');
  const key = createPublicKey(readFileSync(pki.file('tppCert'), 'utf8'));
  expect(verify('sha256', Buffer.from(signingString), key, Buffer.from(params.get('signature')!, 'base64'))).toBe(true);
  expect(headers['TPP-Signature-Certificate']).toBe(Buffer.from(cert.rawData).toString('base64'));
  expect(digestOf(undefined)).toBe('SHA-256=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=');
  const other = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey;
  expect(verify('sha256', Buffer.from(signingString), other, Buffer.from(params.get('signature')!, 'base64'))).toBe(
    false,
  );
});

test("the test PKI's certificates carry the PSD2 roles they are made for", async () => {
  const pki = await ensurePki();
  const roles = (f: 'tppCert' | 'aisCert' | 'noRoleCert') =>
    psd2RolesOf(new X509Certificate(readFileSync(pki.file(f), 'utf8')));
  expect(roles('tppCert')).toEqual(['PSP_AI', 'PSP_PI']);
  expect(roles('aisCert')).toEqual(['PSP_AI']);
  expect(roles('noRoleCert')).toEqual(['PSP_IC']);
  const expired = new X509Certificate(readFileSync(pki.file('expiredCert'), 'utf8'));
  expect(expired.notAfter.getTime()).toBeLessThan(Date.now());
});

test('signature values and PEM private keys are redacted in text', async () => {
  const pki = await ensurePki();
  const pem = readFileSync(pki.file('tppKey'), 'utf8');
  const out = redactText(`Signature: keyId="SN=1,CA=CN=x",signature="c2lnbmF0dXJlIHZhbHVl"\n${pem}`);
  expect(out).toContain(`signature="${REDACTED}"`);
  expect(out).not.toContain('c2lnbmF0dXJlIHZhbHVl');
  expect(out).not.toContain(pem.split('\n')[1]);
});

// The keyId's issuer is Node's text joined as RFC 4514 writes it where the two agree, and
// @peculiar/x509's RFC 4514 text everywhere else: the same keyId either way.
test('the keyId names the issuer as RFC 4514 does, for plain names and for names Node prints otherwise', async () => {
  const pki = await ensurePki();
  for (const f of ['ca', 'serverCert', 'tppCert', 'aisCert', 'noRoleCert', 'expiredCert'] as const) {
    const pem = readFileSync(pki.file(f), 'utf8');
    const cert = new X509Certificate(pem);
    expect(keyIdOf(pem), f).toBe(`SN=${cert.serialNumber.replace(/^0+(?=.)/, '').toUpperCase()},CA=${cert.issuer}`);
  }
  const alg = {
    name: 'RSASSA-PKCS1-v1_5',
    hash: 'SHA-256',
    publicExponent: new Uint8Array([1, 0, 1]),
    modulusLength: 2048,
  };
  const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  for (const name of [
    'CN=Bank\\, Inc., O=obg, C=SE',
    'CN=Sandbox+OU=Tests, O=obg, C=SE',
    'E=ca@bank.example, CN=Bank CA, C=SE',
    'CN=Bänk, C=SE',
    'CN= Bank, C=SE',
  ]) {
    const made = await X509CertificateGenerator.createSelfSigned(
      { serialNumber: '0a1b', name, keys, signingAlgorithm: alg },
      webcrypto,
    );
    const pem = made.toString('pem');
    expect(keyIdOf(pem), name).toBe(`SN=A1B,CA=${new X509Certificate(pem).issuer}`);
  }
  expect(plainIssuerOf('CN=obg-conformance test CA\nO=obg-conformance\nC=SE')).toBe(
    'CN=obg-conformance test CA, O=obg-conformance, C=SE',
  );
  for (const odd of ['CN=Bank\\, Inc.\nC=SE', 'CN=a+OU=b\nC=SE', 'emailAddress=a@b\nC=SE', '2.5.4.97=x\nC=SE', 'CN=#x'])
    expect(plainIssuerOf(odd), odd).toBeUndefined();
});
