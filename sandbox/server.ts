import { build } from './app.js';
import { DEFAULT_CLIENT, secondApplicationOf, type Client } from './auth/clients.js';
import { DEFAULT_PKI_DIR } from './tls/pki.js';

/** A SANDBOX_* setting the sandbox cannot start with: the message names the key. */
export class SandboxSettingError extends Error {}

/** The reference sandbox listening, with what a caller prints about it. */
export interface Served {
  app: Awaited<ReturnType<typeof build>>;
  /** The base URL it answers on (TARGET_BASE_URL and TARGET_AUTH_URL of a run against it). */
  base: string;
  client: Client;
  /** The second application (SANDBOX_SECOND_CLIENT_*, else derived from the first). */
  second: Client;
  faults: string[];
  variants: string[];
  /** The test PKI folder (SANDBOX_PKI_DIR, else the default one). */
  pkiDir: string;
}

const names = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** A whole number within [min, max] from a setting, or a SandboxSettingError naming it. */
function whole(env: NodeJS.ProcessEnv, key: string, min: number, max: number, what: string): number | undefined {
  const raw = env[key];
  if (!raw) return undefined;
  if (!(/^\d+$/.test(raw) && Number(raw) >= min && Number(raw) <= max))
    throw new SandboxSettingError(
      `${key}: "${raw}" is not ${what} (${max === Infinity ? `${min} or more` : `${min} to ${max}`}).`,
    );
  return Number(raw);
}

/** The test application and the second one of the SANDBOX_* settings. */
function clientsOf(env: NodeJS.ProcessEnv): { client: Client; second: Client[] } {
  const client: Client = {
    clientId: env.SANDBOX_CLIENT_ID || DEFAULT_CLIENT.clientId,
    clientSecret: env.SANDBOX_CLIENT_SECRET || DEFAULT_CLIENT.clientSecret,
    redirectUris: names(env.SANDBOX_REDIRECT_URIS || DEFAULT_CLIENT.redirectUris.join(',')),
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
  return { client, second };
}

/**
 * The reference sandbox on SANDBOX_PORT (default 8794) and SANDBOX_HOST, for the suite or any
 * other tool, built from the SANDBOX_* settings it is given (the command reads them: environment
 * over .env). A malformed setting or an unknown fault or variant is a SandboxSettingError.
 */
export async function serve(env: NodeJS.ProcessEnv): Promise<Served> {
  const port = env.SANDBOX_PORT ? Number(env.SANDBOX_PORT) : 8794;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new SandboxSettingError(`SANDBOX_PORT: "${env.SANDBOX_PORT}" is not a port number (0 to 65535).`);
  if (env.SANDBOX_SIGNING && !['verify', 'required'].includes(env.SANDBOX_SIGNING))
    throw new SandboxSettingError(`SANDBOX_SIGNING: "${env.SANDBOX_SIGNING}" must be verify or required.`);
  const scaDelayMs = whole(env, 'SANDBOX_SCA_DELAY_MS', 0, 600_000, 'a whole number of milliseconds');
  // SANDBOX_RATE_LIMIT: requests a second before 429 with Retry-After; SANDBOX_LATENCY_MS: every answer held this long.
  const rateLimit = whole(env, 'SANDBOX_RATE_LIMIT', 1, Infinity, 'a whole number of requests a second');
  const latencyMs = whole(env, 'SANDBOX_LATENCY_MS', 0, 60_000, 'a whole number of milliseconds');
  const { client, second } = clientsOf(env);
  const faults = names(env.SANDBOX_FAULTS);
  const variants = names(env.SANDBOX_VARIANTS);
  let app: Served['app'];
  try {
    app = await build({
      clients: [client, ...second],
      faults,
      variants,
      scaDelayMs,
      logger: env.SANDBOX_LOG === '1',
      // SANDBOX_TLS=1: HTTPS with the test PKI (SANDBOX_PKI_DIR); SANDBOX_MTLS=1: a client certificate
      // is required; SANDBOX_SIGNING=required: every API call must be signed.
      pkiDir: env.SANDBOX_PKI_DIR || undefined,
      tls: env.SANDBOX_TLS === '1' || env.SANDBOX_MTLS === '1' ? { mtls: env.SANDBOX_MTLS === '1' } : undefined,
      signing: env.SANDBOX_SIGNING === 'required' ? 'required' : 'verify',
      ...(rateLimit ? { rateLimit: { perSecond: rateLimit } } : {}),
      ...(latencyMs !== undefined ? { latencyMs } : {}),
    });
  } catch (err) {
    // An unknown fault name, for instance: say which.
    throw new SandboxSettingError((err as Error).message);
  }
  const address = await app.listen({ port, host: env.SANDBOX_HOST ?? '127.0.0.1' });
  return {
    app,
    base: address.replace('[::1]', 'localhost'),
    client,
    second: second[0] ?? secondApplicationOf(client),
    faults,
    variants,
    pkiDir: env.SANDBOX_PKI_DIR || DEFAULT_PKI_DIR,
  };
}
