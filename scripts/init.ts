// `obg-conformance init`: drafts a profile and .env from what a bank publishes and answers.
// Flags or prompts give the URLs and credentials; the bank's OpenAPI file gives the paths and the
// payment services and products; the ASPSP detail gives globalPaymentProducts; with
// --probe-consent one consent (deleted again) gives the SCA methods. Every field it could not
// find is listed in profiles/<name>.notes.md with how to find it. Exit 2 on a usage error.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../harness/config/errors.js';
import { fromRoot } from '../harness/config/paths.js';
import { loadProfile } from '../harness/config/profile.js';
import { BIC_PATTERN } from '../harness/config/settings.js';

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const option = (name: string) => {
  const at = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (at < 0) return undefined;
  return args[at].includes('=') ? args[at].slice(args[at].indexOf('=') + 1) : args[at + 1];
};
const usage = (message: string): never => {
  console.error(`init: ${message}`);
  console.error('hint: obg-conformance init --help');
  process.exit(2);
};

const KNOWN = [
  'base-url',
  'auth-url',
  'client-id',
  'client-secret',
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
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (['--probe-consent', '--force', '--yes'].includes(a)) continue;
  const m = /^--([\w-]+)(=.*)?$/.exec(a);
  if (!m || !KNOWN.includes(m[1])) usage(`unknown option ${a}`);
  if (!m![2]) i++;
}

const notes: string[] = [];
const note = (field: string, how: string) => notes.push(`- \`${field}\`: ${how}`);
const say = (line: string) => console.log(`init: ${line}`);

async function ask(question: string, given: string | undefined, fallback = ''): Promise<string> {
  if (given !== undefined) return given;
  if (flag('yes') || !process.stdin.isTTY) return fallback;
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const answer = (await rl.question(`${question}${fallback ? ` [${fallback}]` : ''}: `)).trim();
  rl.close();
  return answer || fallback;
}

const baseUrl = (await ask('Base URL of the API (TARGET_BASE_URL)', option('base-url'))).replace(/\/+$/, '');
if (!baseUrl) usage('--base-url is required (the API under test)');
try {
  new URL(baseUrl);
} catch {
  usage(`--base-url: "${baseUrl}" is not an absolute URL`);
}
const authUrl = (await ask('Authorisation server URL (TARGET_AUTH_URL)', option('auth-url'), baseUrl)).replace(
  /\/+$/,
  '',
);
const clientId = await ask('Client id (CLIENT_ID)', option('client-id'));
const clientSecret = await ask('Client secret (CLIENT_SECRET)', option('client-secret'));
const bicFi = await ask('X-BicFi of the bank (BICFI)', option('bicfi'));
if (bicFi && !BIC_PATTERN.test(bicFi)) usage(`--bicfi: "${bicFi}" is not a BIC`);
const psuId = await ask('A test PSU of the bank (PSU_ID)', option('psu-id'));
const openapi = await ask("The bank's OpenAPI file, path or URL (empty: none)", option('openapi'));
const psuCorporateId = option('psu-corporate-id') ?? '';
const secondClientId = option('second-client-id') ?? '';
const secondClientSecret = option('second-client-secret') ?? '';
const signingCert = option('signing-cert') ?? '';
const signingKey = option('signing-key') ?? '';
const testPkiDir = option('test-pki-dir') ?? '';
if (!signingCert !== !signingKey) usage('--signing-cert and --signing-key: both or neither');
const name = option('name') ?? 'bank';
if (!/^[\w.-]+$/.test(name)) usage(`--name: "${name}" is not a file name`);

const cwd = process.cwd();
const envFile = resolve(cwd, '.env');
const profileFile = resolve(cwd, 'profiles', `${name}.json`);
const notesFile = resolve(cwd, 'profiles', `${name}.notes.md`);
for (const f of [envFile, profileFile])
  if (existsSync(f) && !flag('force')) usage(`${relative(cwd, f)} exists: --force overwrites it`);

// The draft starts from the reference profile's layout; what the bank shows replaces it.
/** The profile's fields the draft sets (profiles/profile.schema.ts); the rest is the reference's. */
interface Draft {
  name: string;
  description: string;
  features: string[];
  psuContext: string;
  paths: Record<string, string>;
  sca: { methods: string[] };
  payments: { products: string[]; services: string[]; cancellationAuthorisation?: string[] };
}
const reference = JSON.parse(readFileSync(fromRoot('profiles', 'reference.json'), 'utf8')) as Draft;
const profile = JSON.parse(JSON.stringify(reference)) as Draft;
profile.name = name;
profile.description = `Drafted by obg-conformance init from ${baseUrl} on ${new Date().toISOString().slice(0, 10)}: review every claim.`;

// --- Paths, services and products from the OpenAPI file ------------------------------------------
type PathKey = string;
const PATH_ENDINGS: [PathKey, RegExp][] = [
  ['aspsps', /^(.*\/aspsps)$/],
  ['cities', /^(.*\/cities)$/],
  ['countries', /^(.*\/countries)$/],
  ['accounts', /^(.*\/accounts)$/],
  ['consents', /^(.*\/consents)$/],
  ['payments', /^(.*?)\/(\{[^}]+\}|payments|bulk-payments|periodic-payments)\/\{[^}]+\}$/],
  ['signingBaskets', /^(.*\/signing-baskets)$/],
];
const found = new Set<string>();
let products: string[] | undefined;
let services: string[] | undefined;
if (openapi) {
  let text: string;
  try {
    text = /^https?:/.test(openapi) ? await (await fetch(openapi)).text() : readFileSync(resolve(cwd, openapi), 'utf8');
  } catch (err) {
    usage(`--openapi: ${openapi} could not be read: ${(err as Error).message}`);
  }
  const doc = parseYaml(text!) as { paths?: Record<string, unknown>; servers?: { url: string }[] };
  const prefix = doc.servers?.[0]?.url ? new URL(doc.servers[0].url, baseUrl).pathname.replace(/^\/+|\/+$/g, '') : '';
  const join = (p: string) => [prefix, p.replace(/^\/+/, '')].filter(Boolean).join('/');
  for (const p of Object.keys(doc.paths ?? {})) {
    for (const [key, re] of PATH_ENDINGS) {
      const m = re.exec(p);
      if (m && !found.has(key)) {
        profile.paths[key] = join(m[1]);
        found.add(key);
      }
    }
    // Services and products from the path parameters' enums.
    const op = (doc.paths![p] ?? {}) as Record<
      string,
      { parameters?: { name: string; schema?: { enum?: string[] } }[] }
    >;
    for (const method of Object.values(op)) {
      for (const prm of method?.parameters ?? []) {
        if (/payment-?product/i.test(prm.name) && prm.schema?.enum) products = prm.schema.enum;
        if (/payment-?service/i.test(prm.name) && prm.schema?.enum) services = prm.schema.enum;
      }
    }
  }
  say(`${openapi}: ${found.size} of the profile's paths found (${[...found].join(', ') || 'none'})`);
}
for (const key of Object.keys(profile.paths) as PathKey[])
  if (!found.has(key))
    note(
      `paths.${key}`,
      `not found in an OpenAPI file; "${profile.paths[key]}" is the reference sandbox's. The specification does not show it: take it from the bank's developer documentation.`,
    );

// --- What the bank answers (read-only) -----------------------------------------------------------
const psuContext = profile.psuContext;
async function token(scope: string): Promise<string | undefined> {
  if (!clientId || !clientSecret) return undefined;
  try {
    const res = await fetch(`${authUrl}/connect/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret,
        scope: `${scope} ${psuContext}`,
      }),
    });
    if (!res.ok) return undefined;
    return ((await res.json()) as { access_token?: string }).access_token;
  } catch {
    return undefined;
  }
}
const url = (path: string) => `${baseUrl}/${path.replace(/^\/+/, '')}`;
const headers = (t: string, extra: Record<string, string> = {}) => ({
  Authorization: `Bearer ${t}`,
  'X-Request-ID': randomUUID(),
  ...(bicFi ? { 'X-BicFi': bicFi } : {}),
  ...extra,
});

const directoryToken = await token('aspspinformation');
if (!directoryToken)
  say(`no application token from ${authUrl}/connect/token with these credentials: nothing read from the bank`);
if (directoryToken && bicFi) {
  try {
    const res = await fetch(url(`${profile.paths.aspsps}/${bicFi}`), { headers: headers(directoryToken) });
    if (res.ok) {
      const detail = (await res.json()) as { globalPaymentProducts?: string[] };
      if (!products && detail.globalPaymentProducts?.length) {
        products = detail.globalPaymentProducts;
        say(`ASPSP detail of ${bicFi}: globalPaymentProducts ${products.join(', ')}`);
      }
    } else say(`ASPSP detail of ${bicFi}: ${res.status}`);
  } catch (err) {
    say(`ASPSP detail of ${bicFi}: ${(err as Error).message}`);
  }
}
if (products) {
  const kept = products.filter((p) => reference.payments.products.includes(p));
  if (kept.length) {
    profile.payments.products = kept;
    const cancellation = profile.payments.cancellationAuthorisation?.filter((p) => kept.includes(p));
    if (cancellation?.length) profile.payments.cancellationAuthorisation = cancellation;
    else {
      delete profile.payments.cancellationAuthorisation;
      profile.features = profile.features.filter((f) => f !== 'payments.cancellation-authorisation');
    }
  }
} else note('payments.products', 'not found (no OpenAPI enum, no ASPSP detail): list the products the bank offers.');
if (services) {
  const kept = services.filter((s) => reference.payments.services.includes(s));
  if (kept.length) profile.payments.services = kept;
} else note('payments.services', 'not found in an OpenAPI enum: list the payment services the bank offers.');

// --- SCA methods: one consent, created and deleted again (--probe-consent) ----------------------
if (flag('probe-consent')) {
  const t = await token('accountinformation');
  let consentId: string | undefined;
  try {
    if (!t) throw new Error('no application token for accountinformation');
    const psu = { ...(psuId ? { 'PSU-ID': psuId } : {}), 'PSU-IP-Address': '192.0.2.10' };
    const created = await fetch(url(profile.paths.consents), {
      method: 'POST',
      headers: headers(t, { 'Content-Type': 'application/json', ...psu }),
      body: JSON.stringify({
        access: { balances: [], transactions: [] },
        recurringIndicator: false,
        validUntil: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
        frequencyPerDay: 1,
        combinedServiceIndicator: false,
      }),
    });
    if (!created.ok) throw new Error(`create consent: ${created.status}`);
    consentId = ((await created.json()) as { consentId?: string }).consentId;
    if (!consentId) throw new Error('create consent: no consentId');
    const auth = await fetch(url(`${profile.paths.consents}/${consentId}/authorisations`), {
      method: 'POST',
      headers: headers(t, psu),
    });
    if (!auth.ok) throw new Error(`create authorisation: ${auth.status}`);
    const methods = ((await auth.json()) as { scaMethods?: { authenticationMethodId?: string }[] }).scaMethods ?? [];
    const ids = methods.map((m) => m.authenticationMethodId).filter((m): m is string => !!m);
    const kept = ids.filter((m) => reference.sca.methods.includes(m));
    if (kept.length) {
      profile.sca.methods = kept;
      say(`SCA methods offered on a consent's authorisation: ${ids.join(', ')}`);
    } else
      note(
        'sca.methods',
        `the consent's authorisation offered ${ids.join(', ') || 'no method'}: list the methods the bank offers.`,
      );
  } catch (err) {
    note('sca.methods', `--probe-consent: ${(err as Error).message}; list the methods the bank offers.`);
  } finally {
    if (consentId && t)
      await fetch(url(`${profile.paths.consents}/${consentId}`), { method: 'DELETE', headers: headers(t) }).catch(
        () => undefined,
      );
  }
} else
  note(
    'sca.methods',
    "the reference sandbox's methods: --probe-consent reads the bank's from one consent (deleted again).",
  );
// Signing is claimed only with the TPP's QSealC and key (the run needs them); its test
// certificates only with a test PKI folder.
if (!signingCert)
  profile.features = profile.features.filter((f) => f !== 'signing' && f !== 'signing.test-certificates');
else if (!testPkiDir) profile.features = profile.features.filter((f) => f !== 'signing.test-certificates');
if (!signingCert)
  note(
    'features: signing',
    'not claimed: --signing-cert and --signing-key (the QSealC and its key) let the suite sign and judge it.',
  );
note(
  'features',
  'the reference sandbox\'s claims, which are every feature: remove what the bank does not offer (an unclaimed requirement is "not claimed", never failed).',
);
note(
  'sca.psuAgent',
  '"form" approves on the reference sandbox\'s own SCA page; a real bank needs "browser" or "manual".',
);
note(
  'accounts.readerPsuIds, accounts.isolatedPsuIds, consents.isolatedPsuIds',
  "the reference sandbox's test PSUs: name the bank's.",
);

// --- Write the draft ------------------------------------------------------------------------------
mkdirSync(dirname(profileFile), { recursive: true });
writeFileSync(profileFile, `${JSON.stringify(profile, null, 2)}\n`);
try {
  loadProfile(profileFile);
} catch (err) {
  if (err instanceof ConfigError) notes.push(`- the draft does not validate yet: ${err.message}`);
  else throw err;
}
const env = [
  `# Written by obg-conformance init. The process environment wins over this file.`,
  `TARGET_BASE_URL=${baseUrl}`,
  `TARGET_AUTH_URL=${authUrl}`,
  `TARGET_PROFILE=profiles/${name}.json`,
  `CLIENT_ID=${clientId}`,
  `CLIENT_SECRET=${clientSecret}`,
  `BICFI=${bicFi}`,
  `PSU_ID=${psuId}`,
  `PSU_CORPORATE_ID=${psuCorporateId}`,
  `SECOND_CLIENT_ID=${secondClientId}`,
  `SECOND_CLIENT_SECRET=${secondClientSecret}`,
  `# The TPP's QSealC and key, for the feature "signing" (the draft claims it only with them).`,
  `TPP_SIGNING_CERT_FILE=${signingCert && resolve(cwd, signingCert)}`,
  `TPP_SIGNING_KEY_FILE=${signingKey && resolve(cwd, signingKey)}`,
  `TPP_TEST_PKI_DIR=${testPkiDir && resolve(cwd, testPkiDir)}`,
  '',
].join('\n');
writeFileSync(envFile, env, { mode: 0o600 });
writeFileSync(notesFile, [`# What obg-conformance init could not find for ${name}`, '', ...notes, ''].join('\n'));
say(
  `wrote ${relative(cwd, envFile)}, ${relative(cwd, profileFile)} and ${relative(cwd, notesFile)} (${notes.length} notes)`,
);
for (const n of notes) console.log(`  ${n}`);
say('then: obg-conformance run');
