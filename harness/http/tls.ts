import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates, type ConnectionOptions } from 'node:tls';
import { ConfigError } from '../config/errors.js';
import type { Settings } from '../config/settings.js';

/** TLS material for every call to the target, the token endpoint included (undici `connect` options). */
export interface TlsMaterial {
  /** A private CA the target's certificate chains to (TARGET_CA_FILE), added to Node's own roots. */
  ca?: string[];
  /** Mutual TLS: the client certificate and key (TLS_CLIENT_CERT_FILE, TLS_CLIENT_KEY_FILE). */
  cert?: string;
  key?: string;
  passphrase?: string;
}

/** The proxy settings (HTTPS_PROXY, HTTP_PROXY, NO_PROXY), when a proxy is set. */
export interface ProxySettings {
  httpsProxy?: string;
  httpProxy?: string;
  noProxy?: string;
}

const readFile = (key: string, file: string): string => {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`${key}: cannot read "${file}": ${(e as Error).message}`);
  }
};

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** PEM certificates of a file, each parsed: a file that holds none, or a broken one, names its key. */
export function readCertificates(key: string, file: string): string[] {
  const pems = readFile(key, file).match(PEM_CERT) ?? [];
  if (!pems.length) throw new ConfigError(`${key}: "${file}" holds no PEM certificate.`);
  for (const pem of pems) {
    try {
      new X509Certificate(pem);
    } catch (e) {
      throw new ConfigError(`${key}: "${file}" holds a certificate that does not parse: ${(e as Error).message}`);
    }
  }
  return pems;
}

/** A PEM private key, opened with its passphrase; a wrong or missing passphrase names both keys. */
export function readPrivateKey(key: string, file: string, passphrase: string, passphraseKey: string): string {
  const pem = readFile(key, file);
  if (!passphrase && /ENCRYPTED/.test(pem)) {
    throw new ConfigError(`${key}: the key in "${file}" is encrypted: set ${passphraseKey}.`);
  }
  try {
    createPrivateKey({ key: pem, passphrase: passphrase || undefined });
  } catch (e) {
    const msg = (e as Error).message;
    if (/passphrase|decrypt/i.test(msg))
      throw new ConfigError(`${key}: the key in "${file}" does not open with ${passphraseKey} (${msg}).`);
    throw new ConfigError(`${key}: "${file}" holds no usable private key (${msg}).`);
  }
  return pem;
}

/** Reads and checks the TLS settings; nothing set gives undefined (Node's defaults). */
export function readTls(s: Settings): TlsMaterial | undefined {
  const out: TlsMaterial = {};
  if (s.TARGET_CA_FILE) out.ca = readCertificates('TARGET_CA_FILE', s.TARGET_CA_FILE);
  if (!s.TLS_CLIENT_CERT_FILE !== !s.TLS_CLIENT_KEY_FILE) {
    throw new ConfigError('TLS_CLIENT_CERT_FILE and TLS_CLIENT_KEY_FILE: set both (mutual TLS) or neither.');
  }
  if (s.TLS_CLIENT_KEY_PASSPHRASE && !s.TLS_CLIENT_KEY_FILE) {
    throw new ConfigError('TLS_CLIENT_KEY_PASSPHRASE: set without TLS_CLIENT_KEY_FILE.');
  }
  if (s.TLS_CLIENT_CERT_FILE) {
    out.cert = readCertificates('TLS_CLIENT_CERT_FILE', s.TLS_CLIENT_CERT_FILE).join('\n');
    out.key = readPrivateKey(
      'TLS_CLIENT_KEY_FILE',
      s.TLS_CLIENT_KEY_FILE,
      s.TLS_CLIENT_KEY_PASSPHRASE,
      'TLS_CLIENT_KEY_PASSPHRASE',
    );
    if (s.TLS_CLIENT_KEY_PASSPHRASE) out.passphrase = s.TLS_CLIENT_KEY_PASSPHRASE;
    try {
      createSecureContext({ cert: out.cert, key: out.key, passphrase: out.passphrase });
    } catch (e) {
      throw new ConfigError(
        `TLS_CLIENT_KEY_FILE: the key does not belong to the certificate of TLS_CLIENT_CERT_FILE (${(e as Error).message}).`,
      );
    }
  }
  return Object.keys(out).length ? out : undefined;
}

/** The proxy settings, or undefined when no proxy is set (HTTPS_PROXY, HTTP_PROXY, in either case). */
export function readProxy(s: Settings): ProxySettings | undefined {
  const httpsProxy = s.HTTPS_PROXY || s.named.https_proxy || undefined;
  const httpProxy = s.HTTP_PROXY || s.named.http_proxy || undefined;
  const noProxy = s.NO_PROXY || s.named.no_proxy || undefined;
  return httpsProxy || httpProxy ? { httpsProxy, httpProxy, noProxy } : undefined;
}

/**
 * Options for undici's connector (`connect` of an Agent, `requestTls` of a proxy agent): one
 * secure context made once, since Node's roots plus a private CA parsed for every new connection
 * cost a core a tenth of a second each.
 */
export function connectOptions(tls: TlsMaterial | undefined): ConnectionOptions {
  if (!tls) return {};
  return {
    secureContext: createSecureContext({
      ...(tls.ca ? { ca: [...rootCertificates, ...tls.ca] } : {}),
      ...(tls.cert ? { cert: tls.cert, key: tls.key, passphrase: tls.passphrase } : {}),
    }),
  };
}
