import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';
import * as asn1js from 'asn1js';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

/** ETSI TS 119 495: the QC statement that holds the PSD2 roles (reference facts, "Certificates and request signing"). */
export const PSD2_QC_STATEMENT = '0.4.0.19495.2';
const QC_STATEMENTS = '1.3.6.1.5.5.7.1.3';
export const PSD2_ROLES = {
  PSP_AS: '0.4.0.19495.1.1',
  PSP_PI: '0.4.0.19495.1.2',
  PSP_AI: '0.4.0.19495.1.3',
  PSP_IC: '0.4.0.19495.1.4',
} as const;
export type Psd2Role = keyof typeof PSD2_ROLES;

import { DEFAULT_PKI_DIR, PKI_FILES, pkiReady } from './pki-files.js';

export { DEFAULT_PKI_DIR, PKI_FILES, pkiReady };

const RSA = {
  name: 'RSASSA-PKCS1-v1_5',
  hash: 'SHA-256',
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 2048,
};
const DAY = 86_400_000;

/** DER of the qcStatements extension with the PSD2 statement: roles, NCA name and NCA id. */
export function psd2QcStatements(
  roles: Psd2Role[],
  ncaName = 'Sandbox Financial Authority',
  ncaId = 'SE-SBX',
): ArrayBuffer {
  const psd2 = new asn1js.Sequence({
    value: [
      new asn1js.Sequence({
        value: roles.map(
          (r) =>
            new asn1js.Sequence({
              value: [new asn1js.ObjectIdentifier({ value: PSD2_ROLES[r] }), new asn1js.Utf8String({ value: r })],
            }),
        ),
      }),
      new asn1js.Utf8String({ value: ncaName }),
      new asn1js.Utf8String({ value: ncaId }),
    ],
  });
  const statement = new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: PSD2_QC_STATEMENT }), psd2] });
  return new asn1js.Sequence({ value: [statement] }).toBER();
}

/** The PSD2 roles a certificate's QC statement holds; undefined when it has no PSD2 statement. */
export function psd2RolesOf(cert: x509.X509Certificate): string[] | undefined {
  const ext = cert.getExtension(QC_STATEMENTS);
  if (!ext) return undefined;
  const parsed = asn1js.fromBER(ext.value);
  if (parsed.offset === -1 || !(parsed.result instanceof asn1js.Sequence)) return undefined;
  for (const st of parsed.result.valueBlock.value) {
    if (!(st instanceof asn1js.Sequence)) continue;
    const [id, info] = st.valueBlock.value;
    if (!(id instanceof asn1js.ObjectIdentifier) || id.valueBlock.toString() !== PSD2_QC_STATEMENT) continue;
    if (!(info instanceof asn1js.Sequence)) return [];
    const roles = info.valueBlock.value[0];
    if (!(roles instanceof asn1js.Sequence)) return [];
    return roles.valueBlock.value.flatMap((role) => {
      const oid = role instanceof asn1js.Sequence ? role.valueBlock.value[0] : undefined;
      const value = oid instanceof asn1js.ObjectIdentifier ? oid.valueBlock.toString() : '';
      const name = Object.entries(PSD2_ROLES).find(([, o]) => o === value)?.[0];
      return name ? [name] : [];
    });
  }
  return undefined;
}

const pemKey = async (key: webcrypto.CryptoKey) =>
  x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', key), 'PRIVATE KEY');

/** The test CA: self-signed, for three years, and its keys. */
async function createCa(now: number) {
  const caKeys = await webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify']);
  const caName = 'CN=obg-conformance test CA, O=obg-conformance, C=SE';
  const ca = await x509.X509CertificateGenerator.create({
    serialNumber: '01',
    subject: caName,
    issuer: caName,
    notBefore: new Date(now - DAY),
    notAfter: new Date(now + 3 * 365 * DAY),
    publicKey: caKeys.publicKey,
    signingKey: caKeys.privateKey,
    signingAlgorithm: RSA,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    ],
  });
  return { ca, caKeys };
}

/** Issues certificates of the CA (a new key each, serial numbers from 0x1000), valid for two years unless told. */
function issuerOf(ca: x509.X509Certificate, caKeys: webcrypto.CryptoKeyPair, now: number) {
  let serial = 0x1000;
  return async (
    subject: string,
    extensions: x509.Extension[],
    validity: [number, number] = [now - DAY, now + 2 * 365 * DAY],
  ) => {
    const keys = await webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify']);
    const cert = await x509.X509CertificateGenerator.create({
      serialNumber: (serial++).toString(16),
      subject,
      issuer: ca.subject,
      notBefore: new Date(validity[0]),
      notAfter: new Date(validity[1]),
      publicKey: keys.publicKey,
      signingKey: caKeys.privateKey,
      signingAlgorithm: RSA,
      extensions: [new x509.BasicConstraintsExtension(false, undefined, true), ...extensions],
    });
    return { cert: cert.toString('pem'), key: await pemKey(keys.privateKey) };
  };
}

/** Writes the files aside and moves them in at once, so that runs starting together never read half a PKI. */
function writeAtOnce(dir: string, files: Record<string, string>): void {
  const tmp = `${dir}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  mkdirSync(tmp, { recursive: true, mode: 0o700 });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(tmp, name), text, { mode: 0o600 });
  try {
    if (existsSync(dir) && !pkiReady(dir)) rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
  } catch {
    rmSync(tmp, { recursive: true, force: true }); // another run moved its PKI in first: use that one
  }
}

async function generate(dir: string): Promise<void> {
  const now = Date.now();
  const { ca, caKeys } = await createCa(now);
  const files: Record<string, string> = { [PKI_FILES.ca]: ca.toString('pem') };
  const issue = issuerOf(ca, caKeys, now);
  const server = await issue('CN=127.0.0.1, O=obg-conformance sandbox', [
    new x509.SubjectAlternativeNameExtension([
      { type: 'ip', value: '127.0.0.1' },
      { type: 'dns', value: 'localhost' },
    ]),
    new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
  ]);
  const tppExtensions = (roles: Psd2Role[]) => [
    new x509.Extension(QC_STATEMENTS, false, psd2QcStatements(roles)),
    new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth]),
  ];
  const tppName = (cn: string, n: number) => `CN=${cn}, 2.5.4.97=PSDSE-SBX-${44000 + n}, O=Sandbox TPP AB, C=SE`;
  const tpp = await issue(tppName('sandbox-tpp', 1), tppExtensions(['PSP_AI', 'PSP_PI']));
  const ais = await issue(tppName('sandbox-tpp-ais', 2), tppExtensions(['PSP_AI']));
  const noRole = await issue(tppName('sandbox-tpp-norole', 3), tppExtensions(['PSP_IC']));
  const expired = await issue(tppName('sandbox-tpp-expired', 4), tppExtensions(['PSP_AI', 'PSP_PI']), [
    now - 400 * DAY,
    now - 30 * DAY,
  ]);
  const other = await webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify']);
  Object.assign(files, {
    [PKI_FILES.serverCert]: server.cert,
    [PKI_FILES.serverKey]: server.key,
    [PKI_FILES.tppCert]: tpp.cert,
    [PKI_FILES.tppKey]: tpp.key,
    [PKI_FILES.aisCert]: ais.cert,
    [PKI_FILES.aisKey]: ais.key,
    [PKI_FILES.noRoleCert]: noRole.cert,
    [PKI_FILES.noRoleKey]: noRole.key,
    [PKI_FILES.expiredCert]: expired.cert,
    [PKI_FILES.expiredKey]: expired.key,
    [PKI_FILES.otherKey]: await pemKey(other.privateKey),
  });
  writeAtOnce(dir, files);
}

/** Every file is there and the CA and the TPP certificate are valid for another week. */
export interface TestPki {
  dir: string;
  ca: x509.X509Certificate;
  caPem: string;
  serverCert: string;
  serverKey: string;
  file(name: keyof typeof PKI_FILES): string;
}

const loaded = new Map<string, Promise<TestPki>>();

/** The test PKI in `dir`, made there first when it is missing or about to expire. */
export function ensurePki(dir = DEFAULT_PKI_DIR): Promise<TestPki> {
  let p = loaded.get(dir);
  if (!p) {
    p = (async () => {
      if (!pkiReady(dir)) await generate(dir);
      const read = (f: string) => readFileSync(join(dir, f), 'utf8');
      const caPem = read(PKI_FILES.ca);
      return {
        dir,
        ca: new x509.X509Certificate(caPem),
        caPem,
        serverCert: read(PKI_FILES.serverCert),
        serverKey: read(PKI_FILES.serverKey),
        file: (name) => join(dir, PKI_FILES[name]),
      };
    })();
    loaded.set(dir, p);
  }
  return p;
}
