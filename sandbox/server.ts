import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'dotenv';
import { build } from './app.js';
import { DEFAULT_CLIENT, secondApplicationOf, type Client } from './auth/clients.js';
import { DIRECTORY } from './seed/directory.js';
import { DEFAULT_PKI_DIR } from './tls/pki.js';

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
const second: Client[] =
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
    clients: [client, ...second],
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

if (env.SANDBOX_QUIET !== '1') {
  console.log(`obg-conformance reference sandbox
  base URL        ${base}        (TARGET_BASE_URL)
  auth URL        ${base}        (TARGET_AUTH_URL: ${base}/connect/token, ${base}/connect/authorize)
  client id       ${client.clientId}
  client secret   ${client.clientSecret}
  redirect URIs   ${client.redirectUris.join(', ')}
  second client   ${(second[0] ?? secondApplicationOf(client)).clientId} (SECOND_CLIENT_ID; its secret is SANDBOX_SECOND_CLIENT_SECRET, or the first's with "-second")
  banks (X-BicFi) ${DIRECTORY.banks
    .map((b) => b.bicFi)
    .slice(0, 6)
    .join(', ')}, …
  faults          ${faults.length ? faults.join(', ') : 'none'}
  variants        ${variants.length ? variants.join(', ') : 'none'}
  test PKI        ${env.SANDBOX_PKI_DIR || DEFAULT_PKI_DIR}        (TARGET_CA_FILE=ca.pem; TLS_CLIENT_* and TPP_SIGNING_*: tpp.pem, tpp.key)
Point the suite at it: TARGET_BASE_URL=${base} CLIENT_ID=${client.clientId} CLIENT_SECRET=… BICFI=${DIRECTORY.banks[0].bicFi} npm run conformance`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}
