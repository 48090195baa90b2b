import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The test PKI's folder and files, and whether they are there and valid: what the launcher of the
// embedded sandbox needs (embedded-sandbox.ts, loaded by every runner and worker of a run), apart
// from the making of the PKI (pki.ts, with @peculiar/x509: a few hundred milliseconds to load).

/**
 * The sandbox's test PKI, written to one folder that the suite's self-tests read: a CA, the
 * server's certificate (127.0.0.1, localhost), and TPP certificates signed by the CA, each with
 * its key: `tpp` (PSP_AI and PSP_PI: the suite's mutual TLS and signing identity), `tpp-ais`
 * (PSP_AI only), `tpp-norole` (a PSD2 statement with PSP_IC only), `tpp-expired` (both roles,
 * validity over), and `other.key` (a key no certificate belongs to).
 */
export const PKI_FILES = {
  ca: 'ca.pem',
  serverCert: 'server.pem',
  serverKey: 'server.key',
  tppCert: 'tpp.pem',
  tppKey: 'tpp.key',
  aisCert: 'tpp-ais.pem',
  aisKey: 'tpp-ais.key',
  noRoleCert: 'tpp-norole.pem',
  noRoleKey: 'tpp-norole.key',
  expiredCert: 'tpp-expired.pem',
  expiredKey: 'tpp-expired.key',
  otherKey: 'other.key',
} as const;

/** Where the sandbox keeps its test PKI unless told otherwise (shared by runs on this machine). */
export const DEFAULT_PKI_DIR = join(tmpdir(), 'obg-conformance-test-pki');

const WEEK = 7 * 86_400_000;

/** Whether the test PKI in `dir` is whole, and its CA, TPP and server certificates valid for a week more. */
export function pkiReady(dir = DEFAULT_PKI_DIR): boolean {
  if (!Object.values(PKI_FILES).every((f) => existsSync(join(dir, f)))) return false;
  try {
    const soon = Date.now() + WEEK;
    return [PKI_FILES.ca, PKI_FILES.tppCert, PKI_FILES.serverCert].every(
      (f) => Date.parse(new X509Certificate(readFileSync(join(dir, f), 'utf8')).validTo) > soon,
    );
  } catch {
    return false;
  }
}

/**
 * Makes the test PKI in the default folder when it is missing or about to expire, and waits for it:
 * for whoever points a run at its files before any sandbox has started (a fresh machine has none).
 * The making runs in a child (make-pki.ts): @peculiar/x509 is loaded only where a PKI is made.
 */
export function makePkiIfMissing(): void {
  if (pkiReady()) return;
  const here = dirname(fileURLToPath(import.meta.url));
  execFileSync(process.execPath, ['--import', 'tsx', join(here, 'make-pki.ts')], {
    cwd: join(here, '..', '..'),
    stdio: 'ignore',
  });
}
