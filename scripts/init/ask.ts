// init, step 1: asking. Every question has a flag; `--yes` (or no terminal) takes each unanswered
// question's default, so `init --yes` with flags asks nothing (CI).
import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { BIC_PATTERN } from '../../harness/config/settings.js';
import { envFileOf, loadSettings } from '../../harness/config/user-settings.mjs';

/** How the TPP authenticates at the bank ("none": it gives nothing, for a bank that takes no authentication). */
export type AuthMode = 'client-credentials' | 'token' | 'mtls' | 'none';
export const AUTH_MODES: AuthMode[] = ['client-credentials', 'token', 'mtls', 'none'];

/** What the user told init (flags or answers). */
export interface Answers {
  baseUrl: string;
  /** TARGET_AUTH_URL as given; empty: found from the bank's metadata, else the base URL. */
  authUrl: string;
  auth: AuthMode;
  clientId: string;
  clientSecret: string;
  accessToken: string;
  tlsCert: string;
  tlsKey: string;
  caFile: string;
  redirectUri: string;
  bicFi: string;
  psuId: string;
  psuCorporateId: string;
  openapi: string;
  secondClientId: string;
  secondClientSecret: string;
  signingCert: string;
  signingKey: string;
  testPkiDir: string;
  name: string;
  probeConsent: boolean;
  force: boolean;
  yes: boolean;
}

/** The options that take a value. */
const VALUED = [
  'base-url',
  'auth-url',
  'auth',
  'client-id',
  'client-secret',
  'access-token',
  'tls-client-cert',
  'tls-client-key',
  'ca-file',
  'redirect-uri',
  'second-client-id',
  'second-client-secret',
  'bicfi',
  'psu-id',
  'psu-corporate-id',
  'openapi',
  'name',
  'signing-cert',
  'signing-key',
  'test-pki-dir',
];
const SWITCHES = ['--probe-consent', '--no-probe-consent', '--force', '--yes'];

/** A usage error: one line and a hint, exit 2. */
export function usage(message: string): never {
  console.error(`init: ${message}`);
  console.error('hint: obg-conformance init --help');
  process.exit(2);
}

/** The command line read: switches and valued options (`--key=value` or `--key value`). */
export function parseArgs(args: string[]) {
  const values = new Map<string, string>();
  const switches = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (SWITCHES.includes(a)) {
      switches.add(a.slice(2));
      continue;
    }
    const m = /^--([\w-]+)(?:=(.*))?$/s.exec(a);
    if (!m || !VALUED.includes(m[1])) usage(`unknown option ${a}`);
    const value = m![2] ?? args[++i];
    if (value === undefined) usage(`${a}: a value is missing`);
    values.set(m![1], value);
  }
  if (switches.has('probe-consent') && switches.has('no-probe-consent'))
    usage('--probe-consent and --no-probe-consent: one or the other');
  return { option: (name: string) => values.get(name), flag: (name: string) => switches.has(name) };
}

type Parsed = ReturnType<typeof parseArgs>;

/** Asks one question on a terminal, unless a flag answered it or nothing may be asked. */
function asker(p: Parsed) {
  const quiet = p.flag('yes') || !process.stdin.isTTY;
  return async (question: string, given: string | undefined, fallback = ''): Promise<string> => {
    if (given !== undefined) return given.trim();
    if (quiet) return fallback;
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    const answer = (await rl.question(`${question}${fallback ? ` [${fallback}]` : ''}: `)).trim();
    rl.close();
    return answer || fallback;
  };
}

const trimUrl = (u: string) => u.replace(/\/+$/, '');
const isUrl = (u: string) => {
  try {
    return /^https?:$/.test(new URL(u).protocol);
  } catch {
    return false;
  }
};

/** The default authentication: what the flags already give; none given and nothing asked (--yes): "none". */
function authDefault(p: Parsed): AuthMode {
  if (p.option('access-token')) return 'token';
  if (p.option('client-id') !== undefined || p.option('client-secret') !== undefined) return 'client-credentials';
  if (p.option('tls-client-cert')) return 'mtls';
  return p.flag('yes') || !process.stdin.isTTY ? 'none' : 'client-credentials';
}

/** The credentials of the chosen authentication, each asked only where it fits. */
async function askCredentials(p: Parsed, ask: ReturnType<typeof asker>) {
  const auth = (await ask(
    `How the TPP authenticates (${AUTH_MODES.join(', ')})`,
    p.option('auth'),
    authDefault(p),
  )) as AuthMode;
  if (!AUTH_MODES.includes(auth)) usage(`--auth: "${auth}" is none of ${AUTH_MODES.join(', ')}`);
  const clientId =
    auth === 'token' || auth === 'none'
      ? (p.option('client-id') ?? '')
      : await ask('Client id (CLIENT_ID)', p.option('client-id'));
  const clientSecret =
    auth === 'client-credentials'
      ? await ask('Client secret (CLIENT_SECRET)', p.option('client-secret'))
      : (p.option('client-secret') ?? '');
  const accessToken =
    auth === 'token' ? await ask('The pre-issued token (ACCESS_TOKEN)', p.option('access-token')) : '';
  const mtls = auth === 'mtls';
  const tlsCert = mtls
    ? await ask('The TPP certificate, PEM (TLS_CLIENT_CERT_FILE)', p.option('tls-client-cert'))
    : (p.option('tls-client-cert') ?? '');
  const tlsKey = mtls
    ? await ask('Its private key, PEM (TLS_CLIENT_KEY_FILE)', p.option('tls-client-key'))
    : (p.option('tls-client-key') ?? '');
  if (auth === 'client-credentials' && (!clientId || !clientSecret))
    usage(
      '--client-id and --client-secret: both are needed with --auth=client-credentials (or --auth=token, --auth=mtls)',
    );
  if (auth === 'token' && !accessToken) usage('--access-token: needed with --auth=token');
  if (mtls && (!tlsCert || !tlsKey)) usage('--tls-client-cert and --tls-client-key: both are needed with --auth=mtls');
  if (!tlsCert !== !tlsKey) usage('--tls-client-cert and --tls-client-key: both or neither');
  return { auth, clientId, clientSecret, accessToken, tlsCert, tlsKey };
}

/** Every answer init needs: from the flags, else asked (a terminal without --yes), else its default. */
export async function askAll(args: string[]): Promise<Answers> {
  const p = parseArgs(args);
  const ask = asker(p);
  const baseUrl = trimUrl(await ask('Base URL of the API (TARGET_BASE_URL)', p.option('base-url')));
  if (!baseUrl) usage('--base-url is required (the API under test)');
  if (!isUrl(baseUrl)) usage(`--base-url: "${baseUrl}" is not an absolute http(s) URL`);
  const authUrl = trimUrl(
    await ask('Authorisation server URL (TARGET_AUTH_URL; empty: read from the bank)', p.option('auth-url')),
  );
  if (authUrl && !isUrl(authUrl)) usage(`--auth-url: "${authUrl}" is not an absolute http(s) URL`);
  const credentials = await askCredentials(p, ask);
  const bicFi = await ask('X-BicFi of the bank (BICFI)', p.option('bicfi'));
  if (bicFi && !BIC_PATTERN.test(bicFi)) usage(`--bicfi: "${bicFi}" is not a BIC`);
  const psuId = await ask('A test PSU of the bank (PSU_ID)', p.option('psu-id'));
  const redirectUri = await ask(
    'A redirect URI whitelisted for the application (REDIRECT_URI)',
    p.option('redirect-uri'),
    loadSettings().REDIRECT_URI,
  );
  if (redirectUri && !isUrl(redirectUri)) usage(`--redirect-uri: "${redirectUri}" is not an absolute http(s) URL`);
  const openapi = await ask("The bank's OpenAPI file, path or URL (empty: none)", p.option('openapi'));
  const probe = p.flag('probe-consent')
    ? 'y'
    : p.flag('no-probe-consent')
      ? 'n'
      : await ask(
          'Create one consent to read its SCA approaches, methods and accounts, then delete it (y/n)',
          undefined,
          p.flag('yes') ? 'n' : 'y',
        );
  const answers: Answers = {
    baseUrl,
    authUrl,
    ...credentials,
    caFile: p.option('ca-file') ?? '',
    redirectUri,
    bicFi,
    psuId,
    psuCorporateId: p.option('psu-corporate-id') ?? '',
    openapi,
    secondClientId: p.option('second-client-id') ?? '',
    secondClientSecret: p.option('second-client-secret') ?? '',
    signingCert: p.option('signing-cert') ?? '',
    signingKey: p.option('signing-key') ?? '',
    testPkiDir: p.option('test-pki-dir') ?? '',
    name: p.option('name') ?? 'bank',
    probeConsent: /^y/i.test(probe),
    force: p.flag('force'),
    yes: p.flag('yes'),
  };
  checkAnswers(answers);
  return answers;
}

/** The answers that only make sense together, and the files init would overwrite. */
function checkAnswers(a: Answers): void {
  if (!a.signingCert !== !a.signingKey) usage('--signing-cert and --signing-key: both or neither');
  if (!a.secondClientId !== !a.secondClientSecret)
    usage('--second-client-id and --second-client-secret: both or neither');
  if (!/^[\w.-]+$/.test(a.name)) usage(`--name: "${a.name}" is not a file name`);
  for (const [flag, file] of [
    ['--tls-client-cert', a.tlsCert],
    ['--tls-client-key', a.tlsKey],
    ['--ca-file', a.caFile],
    ['--signing-cert', a.signingCert],
    ['--signing-key', a.signingKey],
  ])
    if (file && !existsSync(resolve(file))) usage(`${flag}: ${file} does not exist`);
  const cwd = process.cwd();
  for (const f of [envFileOf(cwd), resolve(cwd, 'profiles', `${a.name}.json`)])
    if (existsSync(f) && !a.force)
      usage(`${relative(cwd, f)} exists: --force rewrites it (keeping what init does not replace)`);
}

/** A yes-or-no question asked after the probe; --yes (or no terminal) takes `fallback`. */
export async function askYesNo(a: Pick<Answers, 'yes'>, question: string, fallback: boolean): Promise<boolean> {
  if (a.yes || !process.stdin.isTTY) return fallback;
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const answer = (await rl.question(`${question} (y/n) [${fallback ? 'y' : 'n'}]: `)).trim();
  rl.close();
  return answer ? /^y/i.test(answer) : fallback;
}
