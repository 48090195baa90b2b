// `obg-conformance init`: drafts a profile and .env from what a bank publishes and answers.
// Flags or prompts give the URLs and credentials; the bank's OpenAPI file gives the paths and the
// payment services and products; the ASPSP detail gives globalPaymentProducts; with
// --probe-consent one consent (deleted again) gives the SCA methods and its authorise page, which
// chooses sca.psuAgent (form, browser or manual). Every reading the profile can pin is left at
// "either"; the others keep the reference's value. Every field it could not find, the agent's
// reason and every reading are listed in profiles/<name>.notes.md. Exit 2 on a usage error.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../harness/config/errors.js';
import { fromRoot } from '../harness/config/paths.js';
import { loadProfile } from '../harness/config/profile.js';
import { BIC_PATTERN, chromiumPath as configuredChromium } from '../harness/config/settings.js';
import { findChromium } from '../harness/config/chromium.js';
import { parseForm } from '../harness/sca/psu-agent.js';
import { profileSchema } from '../profiles/profile.schema.js';

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
  sca: { methods: string[]; psuAgent?: string; browser?: { approve: BrowserStep[]; deny?: BrowserStep[] } };
  payments: { products: string[]; services: string[]; cancellationAuthorisation?: string[] };
  [section: string]: unknown;
}
type BrowserStep = { fill: string; from: string } | { click: string } | { waitForRedirect: true };
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

// --- SCA methods and the authorise page: one consent, created and deleted again (--probe-consent) -
/** What the probe consent showed: the authorise URL of its redirect flow, its delete answer, its read after. */
const seen: { authorizeUrl?: string; authorizeFrom?: string; deleted?: string; afterDelete?: string } = {};
const redirectUri = process.env.REDIRECT_URI ?? '';
const linkOf = (body: unknown, name: string): string | undefined => {
  const href = (body as { _links?: Record<string, { href?: string } | string> } | undefined)?._links?.[name];
  return typeof href === 'string' ? href : href?.href;
};
/** The authorise URL from a scaOAuth or scaRedirect link, with what the client fills (section F) when the link leaves it out. */
const authorizeUrlOf = (href: string): string => {
  const u = new URL(href, `${baseUrl}/`);
  if (!u.searchParams.has('client_id') && clientId) u.searchParams.set('client_id', clientId);
  if (!u.searchParams.has('redirect_uri') && redirectUri) u.searchParams.set('redirect_uri', redirectUri);
  if (!u.searchParams.has('state')) u.searchParams.set('state', randomUUID());
  return u.toString();
};
if (flag('probe-consent')) {
  const t = await token('accountinformation');
  let consentId: string | undefined;
  const psu = { ...(psuId ? { 'PSU-ID': psuId } : {}), 'PSU-IP-Address': '192.0.2.10' };
  // TPP-Redirect-URI is mandated when TPP-Redirect-Preferred is true (Common request headers): without
  // a REDIRECT_URI the probe prefers nothing and the bank picks its approach.
  const redirect: Record<string, string> = redirectUri
    ? { 'TPP-Redirect-Preferred': 'true', 'TPP-Redirect-URI': redirectUri }
    : {};
  try {
    if (!t) throw new Error('no application token for accountinformation');
    const created = await fetch(url(profile.paths.consents), {
      method: 'POST',
      headers: headers(t, { 'Content-Type': 'application/json', ...psu, ...redirect }),
      body: JSON.stringify({
        access: { balances: [], transactions: [] },
        recurringIndicator: false,
        validUntil: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
        frequencyPerDay: 1,
        combinedServiceIndicator: false,
      }),
    });
    if (!created.ok) throw new Error(`create consent: ${created.status}`);
    const consent = (await created.json()) as { consentId?: string };
    consentId = consent.consentId;
    if (!consentId) throw new Error('create consent: no consentId');
    // A bank that creates the authorisation itself gives the authorise link on creation.
    for (const name of ['scaOAuth', 'scaRedirect']) {
      const href = linkOf(consent, name);
      if (href && !seen.authorizeUrl)
        [seen.authorizeUrl, seen.authorizeFrom] = [authorizeUrlOf(href), `the create-consent answer's ${name}`];
    }
    const auth = await fetch(url(`${profile.paths.consents}/${consentId}/authorisations`), {
      method: 'POST',
      headers: headers(t, { ...psu, ...redirect }),
    });
    if (!auth.ok) throw new Error(`create authorisation: ${auth.status}`);
    const authorisation = (await auth.json()) as {
      authorisationId?: string;
      scaMethods?: { authenticationMethodId?: string }[];
    };
    const ids = (authorisation.scaMethods ?? []).map((m) => m.authenticationMethodId).filter((m): m is string => !!m);
    const kept = ids.filter((m) => reference.sca.methods.includes(m));
    if (kept.length) {
      profile.sca.methods = kept;
      say(`SCA methods offered on a consent's authorisation: ${ids.join(', ')}`);
    } else
      note(
        'sca.methods',
        `the consent's authorisation offered ${ids.join(', ') || 'no method'}: list the methods the bank offers.`,
      );
    // The redirect flow's authorise page (sections E, F): start the authorisation with mbid, redirect preferred.
    if (!seen.authorizeUrl && authorisation.authorisationId && ids.includes('mbid')) {
      const started = await fetch(
        url(`${profile.paths.consents}/${consentId}/authorisations/${authorisation.authorisationId}`),
        {
          method: 'PUT',
          headers: headers(t, { 'Content-Type': 'application/json', ...psu, ...redirect }),
          body: JSON.stringify({ authenticationMethodId: 'mbid' }),
        },
      );
      const body = started.ok ? ((await started.json()) as unknown) : undefined;
      for (const name of ['scaOAuth', 'scaRedirect']) {
        const href = linkOf(body, name);
        if (href && !seen.authorizeUrl)
          [seen.authorizeUrl, seen.authorizeFrom] = [
            authorizeUrlOf(href),
            `the start-authorisation answer's ${name} (mbid)`,
          ];
      }
    }
  } catch (err) {
    note('sca.methods', `--probe-consent: ${(err as Error).message}; list the methods the bank offers.`);
  } finally {
    if (consentId && t) {
      const at = url(`${profile.paths.consents}/${consentId}`);
      const del = await fetch(at, { method: 'DELETE', headers: headers(t, psu) }).catch(() => undefined);
      if (del) {
        const text = await del.text().catch(() => '');
        seen.deleted = `${del.status}${text.trim() ? ' with a body' : ' without a body'}`;
        const read = await fetch(`${at}/status`, { headers: headers(t, psu) }).catch(() => undefined);
        const status = read?.ok
          ? ((await read.json().catch(() => ({}))) as { consentStatus?: string }).consentStatus
          : undefined;
        if (read) seen.afterDelete = status ? `${read.status}, consentStatus ${status}` : String(read.status);
      }
    }
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

// --- The PSU agent (sca.psuAgent): chosen by the authorise page the bank serves ------------------
const agentNotes: string[] = [];
const loginKeys: string[] = [];
// The browser agent's lookup (harness/config/chromium.ts): CHROMIUM_PATH, Debian's chromium or the npm package's build.
const foundChromium = (() => {
  try {
    return findChromium(configuredChromium());
  } catch {
    return undefined;
  }
})();
const chromiumPath = foundChromium?.executablePath ?? configuredChromium();
const hasChromium = foundChromium !== undefined;
interface PageInput {
  selector: string;
  name: string;
  type: string;
  value: string;
}
/** The first form's inputs a PSU must type (a password, or an empty text field) and its approve and deny buttons. */
function readForm(html: string) {
  const form = parseForm(html);
  if (!form) return undefined;
  const inner = /<form\b[^>]*>([\s\S]*?)<\/form>/i.exec(html)![1];
  const attr = (tag: string, n: string) =>
    new RegExp(`\\b${n}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i')
      .exec(tag)
      ?.slice(2)
      .find((v) => v !== undefined);
  const typed: PageInput[] = [];
  for (const m of inner.matchAll(/<input\b[^>]*>/gi)) {
    const type = (attr(m[0], 'type') ?? 'text').toLowerCase();
    const name = attr(m[0], 'name') ?? '';
    const id = attr(m[0], 'id');
    const value = attr(m[0], 'value') ?? '';
    const needsTyping = type === 'password' || (['text', 'email', 'tel', 'number'].includes(type) && !value);
    if (needsTyping && (id || name))
      typed.push({ selector: id ? `#${id}` : `input[name="${name}"]`, name, type, value });
  }
  const buttonOf = (decision: string) => {
    for (const m of inner.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/gi)) {
      const value = (attr(m[1], 'value') ?? '').toLowerCase();
      const label = m[2]
        .replace(/<[^>]+>/g, '')
        .trim()
        .toLowerCase();
      if (value !== decision && label !== decision) continue;
      const id = attr(m[1], 'id');
      const name = attr(m[1], 'name');
      return id
        ? `#${id}`
        : name
          ? `button[name="${name}"][value="${attr(m[1], 'value') ?? ''}"]`
          : `button:has-text("${label}")`;
    }
    return undefined;
  };
  return { typed, approve: buttonOf('approve'), deny: buttonOf('deny') };
}
/** The browser agent's steps drafted from a login form: each field typed from a .env key, then approve. */
function stepsOf(form: NonNullable<ReturnType<typeof readForm>>) {
  const approve: BrowserStep[] = form.typed.map((f) => {
    const key = `PSU_LOGIN_${(f.type === 'password' ? 'password' : f.name || f.selector).toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;
    if (!loginKeys.includes(key)) loginKeys.push(key);
    return { fill: f.selector, from: key };
  });
  approve.push({ click: form.approve ?? 'button[type="submit"]' }, { waitForRedirect: true });
  return { approve, ...(form.deny ? { deny: [{ click: form.deny }, { waitForRedirect: true as const }] } : {}) };
}
/** The page as Chromium renders it (its scripts run), or undefined when it cannot be rendered. */
async function rendered(at: string): Promise<string | undefined> {
  try {
    const { chromium } = await import('@playwright/test');
    const browser = await chromium.launch({ ...(await foundChromium!.launchOptions()), headless: true });
    try {
      const page = await browser.newPage();
      await page.goto(at, { timeout: 15_000 });
      await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
      return await page.content();
    } finally {
      await browser.close();
    }
  } catch {
    return undefined;
  }
}
let psuAgent: 'form' | 'browser' | 'manual' = 'form';
let agentReason = '';
const probeUrl = (() => {
  if (seen.authorizeUrl) return { at: seen.authorizeUrl, from: seen.authorizeFrom! };
  if (!clientId) return undefined;
  // The draft's own path, else the schema's default (profiles/profile.schema.ts).
  const authorizePath =
    (profile.oauth as { authorizePath?: string } | undefined)?.authorizePath ??
    profileSchema.properties.oauth.properties.authorizePath.default;
  const u = new URL(`${authUrl}/${authorizePath}`);
  u.search = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    scope: `accountinformation ${psuContext}`,
    state: randomUUID(),
    ...(redirectUri ? { redirect_uri: redirectUri } : {}),
  }).toString();
  return { at: u.toString(), from: "the bank's authorise URL (no consent behind it)" };
})();
let page: { status: number; html: string } | undefined;
if (probeUrl) {
  try {
    const res = await fetch(probeUrl.at, { headers: { Accept: 'text/html' }, redirect: 'follow' });
    const type = res.headers.get('content-type') ?? '';
    page = { status: res.status, html: /html/i.test(type) ? await res.text() : '' };
  } catch (err) {
    agentReason = `${probeUrl.from} could not be fetched (${(err as Error).message})`;
  }
}
const noBrowser = `no Chromium at ${chromiumPath} (install Debian's chromium package, set CHROMIUM_PATH, or npm install @sparticuz/chromium, for the browser agent)`;
if (!probeUrl) agentReason = 'nothing probed (no client id)';
else if (page && (!page.html || page.status < 200 || page.status >= 300))
  agentReason = `${probeUrl.from} answered ${page.status}${page.html ? '' : ' without an HTML page'}: nothing judged`;
if (page && !agentReason) {
  const form = readForm(page.html);
  if (form && !form.typed.length && form.approve) {
    agentReason = `${probeUrl!.from} is a static HTML form the form agent fills over HTTP (hidden fields and a button "approve")`;
  } else {
    const why = form
      ? form.typed.length
        ? `${probeUrl!.from} is a form that asks the PSU to type ${form.typed.map((f) => f.name || f.selector).join(', ')}, which the form agent cannot`
        : `${probeUrl!.from} is a form without a button "approve" the form agent can press`
      : `${probeUrl!.from} holds no form in its HTML (a script builds the page), which the form agent cannot read`;
    if (hasChromium) {
      psuAgent = 'browser';
      const shown = form ?? readForm((await rendered(probeUrl!.at)) ?? '');
      if (shown) {
        profile.sca.browser = stepsOf(shown);
        agentReason = `${why}; Chromium (${chromiumPath}) drives it. The steps in sca.browser are read from the ${form ? 'page' : 'page as Chromium renders it'}: check them`;
      } else {
        profile.sca.browser = { approve: [{ click: 'button:has-text("Approve")' }, { waitForRedirect: true }] };
        agentReason = `${why}; Chromium (${chromiumPath}) drives it. No form was found even as Chromium renders it: sca.browser holds a guess, replace it with the steps on the bank's login page (Playwright selectors; fill steps type the value of a .env key)`;
      }
    } else {
      psuAgent = 'manual';
      agentReason = `${why}; ${noBrowser}, so a person approves: the suite prints the authorise URL and waits for the return to REDIRECT_URI (a loopback http URI with a port, or set PSU_CALLBACK_LISTEN)`;
    }
  }
}
if (psuAgent === 'form' && !agentReason.includes('static HTML form'))
  agentReason += `; "form" is kept (the reference sandbox's): ${flag('probe-consent') ? '' : 'with --probe-consent init opens the authorise page of one consent; '}if the bank's page asks the PSU to log in, write "browser" with sca.browser steps (needs Chromium) or "manual"`;
profile.sca.psuAgent = psuAgent;
if (psuAgent !== 'browser') delete profile.sca.browser;
agentNotes.push(`- \`sca.psuAgent\`: "${psuAgent}": ${agentReason}.`);
if (loginKeys.length)
  agentNotes.push(
    `- \`sca.browser\`: the .env keys ${loginKeys.join(', ')} hold what the browser agent types (a test PSU's login): fill them in .env.`,
  );
say(`sca.psuAgent ${psuAgent}: ${agentReason}`);

// --- Readings: where the specification and Berlin Group differ, the profile can pin one -----------
// Every reading option of the schema (a string enum in a section) is written "either" where the
// schema has it; the others keep the reference's value, with how to find the bank's.
const readingNotes: string[] = [];
const HOW: Record<string, string> = {
  'consents.afterDelete':
    'delete a consent and read its status: 200 with consentStatus terminatedByTpp → "terminatedByTpp"; 403 or 404 → "gone"',
  'payments.startAuthorisationBody':
    'create an authorisation on a payment without a body: a 2xx → "flow-guide"; a 4xx asking for psuData → "operations-table" (the bank\'s documentation of start authorisation says which)',
  'payments.giroCreditor':
    'the bank\'s documentation of a swedish-giro payment: creditorGiro → "creditorGiro"; a creditorAccount with a bban giro number → "creditorAccount"',
  'directDebit.consentScope':
    'the bank\'s documentation of the direct debit consent: the token scope it is created with (accountinformation corporate → "accountinformation"; paymentinitiation corporate, as section H says → "paymentinitiation")',
  'tokens.accountReads':
    'read an account under a valid consent with the application token: a 2xx → "application"; a 401 or 403 asking for the PSU\'s token → "psu"',
};
const schemaSections = profileSchema.properties as unknown as Record<
  string,
  { properties?: Record<string, { enum?: readonly unknown[]; description?: string; default?: unknown }> }
>;
for (const [section, def] of Object.entries(schemaSections)) {
  for (const [key, option] of Object.entries(def.properties ?? {})) {
    const values = option.enum?.filter((v): v is string => typeof v === 'string');
    if (!values || `${section}.${key}` === 'sca.psuAgent') continue;
    const field = `${section}.${key}`;
    const part = profile[section] as Record<string, unknown> | undefined;
    const readings = values.filter((v) => v !== 'either').join(', ');
    if (values.includes('either')) {
      ((profile[section] ??= {}) as Record<string, unknown>)[key] = 'either';
      readingNotes.push(
        `- \`${field}\`: "either" (readings ${readings}): each answer is judged as the reading it gives. To pin one (the stricter check), write it here once the bank documents it or a run's evidence shows it.`,
      );
    } else {
      const kept =
        part?.[key] === undefined
          ? `absent: the schema's default${option.default === undefined ? '' : ` "${String(option.default)}"`} applies`
          : `"${String(part[key])}", the reference sandbox's`;
      readingNotes.push(
        `- \`${field}\`: ${kept} (readings ${readings}; no "either": the bank follows one). To find which: ${HOW[field] ?? option.description ?? 'see profiles/profile.schema.ts'}.`,
      );
    }
  }
}
if (seen.deleted)
  readingNotes.push(
    `- seen on the probe consent: delete answered ${seen.deleted}; its status read after answered ${seen.afterDelete ?? 'nothing'}.`,
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
  ...(redirectUri ? [`REDIRECT_URI=${redirectUri}`] : []),
  ...(psuAgent === 'manual'
    ? [
        `# The manual agent (sca.psuAgent "manual") listens here (host:port) for the PSU's return, unless REDIRECT_URI is a loopback http URI with a port.`,
        'PSU_CALLBACK_LISTEN=',
      ]
    : []),
  ...(psuAgent === 'browser'
    ? [
        `# The browser agent (sca.psuAgent "browser"): Debian's chromium, and what it types on the bank's login page.`,
        `CHROMIUM_PATH=${process.env.CHROMIUM_PATH ?? ''}`,
        ...loginKeys.map((k) => `${k}=`),
      ]
    : []),
  '',
].join('\n');
writeFileSync(envFile, env, { mode: 0o600 });
writeFileSync(
  notesFile,
  [
    `# What obg-conformance init could not find for ${name}`,
    '',
    ...notes,
    '',
    '## The PSU agent',
    '',
    ...agentNotes,
    '',
    '## Readings the profile can pin',
    '',
    'Where the specification and Berlin Group differ, the bank follows one reading; the profile says which.',
    '',
    ...readingNotes,
    '',
  ].join('\n'),
);
say(
  `wrote ${relative(cwd, envFile)}, ${relative(cwd, profileFile)} and ${relative(cwd, notesFile)} (${notes.length} notes)`,
);
for (const n of notes) console.log(`  ${n}`);
say('then: obg-conformance run');
