import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'dotenv';
import { build } from './app.js';
import { DEFAULT_CLIENT, secondApplicationOf, type Client } from './auth/clients.js';
import { DIRECTORY } from './seed/directory.js';
import { join, sep } from 'node:path';
import { fromRoot } from '../harness/config/paths.js';
import { DEFAULT_PKI_DIR, PKI_FILES } from './tls/pki.js';

/** `npm run sandbox`: the reference sandbox on SANDBOX_PORT, for the suite or any other tool. */
// SANDBOX_* settings from .env, unless the environment sets them.
const fromFile = existsSync('.env') ? parse(readFileSync('.env')) : {};
const env: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(fromFile).filter(([k]) => k.startsWith('SANDBOX_'))),
  ...process.env,
};
const port = Number(env.SANDBOX_PORT || 8794);
const host = env.SANDBOX_HOST ?? '127.0.0.1';
const client: Client = {
  clientId: env.SANDBOX_CLIENT_ID || DEFAULT_CLIENT.clientId,
  clientSecret: env.SANDBOX_CLIENT_SECRET || DEFAULT_CLIENT.clientSecret,
  redirectUris: (env.SANDBOX_REDIRECT_URIS || DEFAULT_CLIENT.redirectUris.join(','))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
};
// A second application (ownership checks); without it build() derives one from the first.
const second_: Client[] =
  env.SANDBOX_SECOND_CLIENT_ID && env.SANDBOX_SECOND_CLIENT_SECRET
    ? [
        {
          clientId: env.SANDBOX_SECOND_CLIENT_ID,
          clientSecret: env.SANDBOX_SECOND_CLIENT_SECRET,
          redirectUris: client.redirectUris,
        },
      ]
    : [];
const names = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const faults = names(env.SANDBOX_FAULTS);
const variants = names(env.SANDBOX_VARIANTS);

if (env.SANDBOX_SIGNING && !['verify', 'required'].includes(env.SANDBOX_SIGNING)) {
  console.error(`SANDBOX_SIGNING: "${env.SANDBOX_SIGNING}" must be verify or required.`);
  process.exit(2);
}
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`SANDBOX_PORT: "${env.SANDBOX_PORT}" is not a port number (0 to 65535).`);
  process.exit(2);
}
const delay = env.SANDBOX_SCA_DELAY_MS;
if (delay && !(/^\d+$/.test(delay) && Number(delay) <= 600_000)) {
  console.error(`SANDBOX_SCA_DELAY_MS: "${delay}" is not a whole number of milliseconds (0 to 600000).`);
  process.exit(2);
}

// SANDBOX_RATE_LIMIT: requests a second before 429 with Retry-After; SANDBOX_LATENCY_MS: every answer held this long.
const rateLimit = env.SANDBOX_RATE_LIMIT;
if (rateLimit && !(/^\d+$/.test(rateLimit) && Number(rateLimit) >= 1)) {
  console.error(`SANDBOX_RATE_LIMIT: "${rateLimit}" is not a whole number of requests a second (1 or more).`);
  process.exit(2);
}
const latency = env.SANDBOX_LATENCY_MS;
if (latency && !(/^\d+$/.test(latency) && Number(latency) <= 60_000)) {
  console.error(`SANDBOX_LATENCY_MS: "${latency}" is not a whole number of milliseconds (0 to 60000).`);
  process.exit(2);
}

let app: Awaited<ReturnType<typeof build>>;
try {
  app = await build({
    clients: [client, ...second_],
    faults,
    variants,
    scaDelayMs: env.SANDBOX_SCA_DELAY_MS ? Number(env.SANDBOX_SCA_DELAY_MS) : undefined,
    logger: env.SANDBOX_LOG === '1',
    // SANDBOX_TLS=1: HTTPS with the test PKI (SANDBOX_PKI_DIR); SANDBOX_MTLS=1: a client certificate
    // is required; SANDBOX_SIGNING=required: every API call must be signed.
    pkiDir: env.SANDBOX_PKI_DIR || undefined,
    tls: env.SANDBOX_TLS === '1' || env.SANDBOX_MTLS === '1' ? { mtls: env.SANDBOX_MTLS === '1' } : undefined,
    signing: env.SANDBOX_SIGNING === 'required' ? 'required' : 'verify',
    ...(rateLimit ? { rateLimit: { perSecond: Number(rateLimit) } } : {}),
    ...(latency ? { latencyMs: Number(latency) } : {}),
  });
} catch (err) {
  // An unknown fault name, for instance: say which and stop.
  console.error(`sandbox: ${(err as Error).message}`);
  process.exit(2);
}
const address = await app.listen({ port, host });
const base = address.replace('[::1]', 'localhost');
const pkiDir = env.SANDBOX_PKI_DIR || DEFAULT_PKI_DIR;

/**
 * The command that, pasted as it is, runs the suite against this sandbox under the reference
 * profile: its URLs, both applications, a bank, a PSU, and the test PKI's files for the signing
 * the reference profile claims (and for TLS and mutual TLS when they are on).
 */
function suiteCommand(): string {
  const second = second_[0] ?? secondApplicationOf(client);
  const settings: [string, string][] = [
    ['TARGET_BASE_URL', base],
    ['TARGET_AUTH_URL', base],
    ['CLIENT_ID', client.clientId],
    ['CLIENT_SECRET', client.clientSecret],
    ['SECOND_CLIENT_ID', second.clientId],
    ['SECOND_CLIENT_SECRET', second.clientSecret],
    ['REDIRECT_URI', client.redirectUris[0] ?? ''],
    ['BICFI', DIRECTORY.banks[0].bicFi],
    ['PSU_ID', 'psu-sandbox-0001'],
    ['PSU_CORPORATE_ID', 'corp-sandbox-0001'],
    ['TPP_SIGNING_CERT_FILE', join(pkiDir, PKI_FILES.tppCert)],
    ['TPP_SIGNING_KEY_FILE', join(pkiDir, PKI_FILES.tppKey)],
    ['TPP_TEST_PKI_DIR', pkiDir],
    ...(base.startsWith('https:') ? ([['TARGET_CA_FILE', join(pkiDir, PKI_FILES.ca)]] as [string, string][]) : []),
    ...(env.SANDBOX_MTLS === '1'
      ? ([
          ['TLS_CLIENT_CERT_FILE', join(pkiDir, PKI_FILES.tppCert)],
          ['TLS_CLIENT_KEY_FILE', join(pkiDir, PKI_FILES.tppKey)],
        ] as [string, string][])
      : []),
  ];
  const quote = (v: string) => (/^[\w@%+=:,./-]*$/.test(v) ? v : `'${v.replace(/'/g, "'\\''")}'`);
  // Installed, the command is the package's; in a checkout, the npm script.
  const installed = existsSync(fromRoot('.staged')) || fromRoot().split(sep).includes('node_modules');
  const where = installed ? 'in the folder where its reports should go' : 'in this checkout';
  return `Run the suite against it (in another terminal, ${where}):\n  ${settings.map(([k, v]) => `${k}=${quote(v)}`).join(' ')} ${installed ? 'npx obg-conformance run' : 'npm run conformance'}`;
}

if (env.SANDBOX_QUIET !== '1') {
  console.log(`obg-conformance reference sandbox
  base URL        ${base}        (TARGET_BASE_URL)
  auth URL        ${base}        (TARGET_AUTH_URL: ${base}/connect/token, ${base}/connect/authorize)
  client id       ${client.clientId}
  client secret   ${client.clientSecret}
  redirect URIs   ${client.redirectUris.join(', ')}
  second client   ${(second_[0] ?? secondApplicationOf(client)).clientId} (SECOND_CLIENT_ID; its secret is SANDBOX_SECOND_CLIENT_SECRET, or the first's with "-second")
  banks (X-BicFi) ${DIRECTORY.banks
    .map((b) => b.bicFi)
    .slice(0, 6)
    .join(', ')}, …
  faults          ${faults.length ? faults.join(', ') : 'none'}
  variants        ${variants.length ? variants.join(', ') : 'none'}
  test PKI        ${pkiDir}        (TARGET_CA_FILE=ca.pem; TLS_CLIENT_* and TPP_SIGNING_*: tpp.pem, tpp.key)
${suiteCommand()}`);
  if (faults.length) console.log('  (with faults on, the run is not conformant: that is what they are for)');
  if (env.SANDBOX_SIGNING === 'required')
    console.log(
      '  (SANDBOX_SIGNING=required: use a profile with signatures.mandated true, or every unsigned call is refused)',
    );
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}
