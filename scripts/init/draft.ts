// init, step 3: drafting. The profile claims what the bank answered and nothing else; each area,
// approach and option that did not answer is listed "not found, not claimed" with the profile key
// that claims it. What the probe cannot see (test PSUs, test accounts when no consent showed
// them) keeps the reference profile's value, with a note. The draft is marked `draft: true`.
import { today } from '../../spec/iso8601.js';
import { readFileSync } from 'node:fs';
import { fromRoot } from '../../harness/config/paths.js';
import type { Answers } from './ask.js';
import type { RequiredHeader } from './bank.js';
import type { AreasFound } from './areas.js';
import type { AuthenticationFound } from './authentication.js';
import type { ConsentFindings, ShownAccount } from './consent.js';
import type { OAuthFound } from './oauth.js';
import type { OpenApiFindings } from './openapi.js';
import type { AgentChoice } from './psu-agent.js';
import { readingNotes } from './readings.js';

/** The profile's fields the draft sets (profiles/profile.schema.ts). */
export interface Draft {
  name: string;
  description: string;
  draft: boolean;
  features: string[];
  psuContext: string;
  paths: Record<string, string>;
  sca: Record<string, unknown> & { methods: string[] };
  payments: Record<string, unknown> & {
    products: string[];
    services: string[];
    cancellationAuthorisation?: string[];
    accounts?: Record<string, { debtorAccount?: ShownAccount; [k: string]: unknown }>;
  };
  [section: string]: unknown;
}

/** What every probing step found. */
export interface Findings {
  answers: Answers;
  oauth: OAuthFound;
  areas: AreasFound;
  openapi?: OpenApiFindings;
  /** globalPaymentProducts of the ASPSP detail, when the directory answered. */
  detailProducts?: string[];
  consent?: ConsentFindings;
  agent: AgentChoice;
  required: RequiredHeader[];
  tokenProblem: string;
  /** Whether the bank takes authentication (authentication.ts); absent: bearer, as a test's findings may leave it. */
  authentication?: AuthenticationFound;
}

/** The draft, and its notes by heading. */
export interface Drafted {
  profile: Draft;
  notFound: string[];
  found: string[];
  review: string[];
  readings: string[];
}

export const readReference = (): Draft =>
  JSON.parse(readFileSync(fromRoot('profiles', 'reference.json'), 'utf8')) as Draft;

const claimHow = (feature: string, keys: string) => `add "${feature}" to features${keys ? ` and set ${keys}` : ''}`;

/**
 * The areas: their paths and features, or "not found, not claimed" with the calls tried. Account
 * information is claimed with consents only (its checks read under a consent the run creates at
 * paths.consents): found without them, it is listed not claimed, saying why.
 */
export function draftAreas(f: Pick<Findings, 'areas'>, p: Draft, d: Pick<Drafted, 'found' | 'notFound' | 'review'>) {
  const a = f.areas.areas;
  const claim = (...features: string[]) => p.features.push(...features.filter((x) => !p.features.includes(x)));
  const notFound = (what: string, tried: string[], how: string) =>
    d.notFound.push(
      `- ${what}: not found, not claimed (${tried.slice(0, 4).join('; ')}${tried.length > 4 ? `; ${tried.length - 4} more` : ''}). To claim it: ${how}.`,
    );
  const areas = [
    ['directory', 'the directory', 'paths.aspsps, paths.cities, paths.countries', ['directory']],
    ['consents', 'consents', 'paths.consents', ['consents', 'authorisations']],
    ['accounts', 'account information', 'paths.accounts', ['accounts']],
    ['payments', 'payment initiation', 'paths.payments, payments.services, payments.products', ['payments']],
    ['signingBaskets', 'signing baskets', 'paths.signingBaskets', ['signing-baskets']],
    ['directDebit', 'SEPA direct debit', 'paths.directDebitCreate, paths.directDebitPayments', ['direct-debit']],
  ] as const;
  for (const [area, what, keys, features] of areas) {
    const found = a[area];
    if (found.paths && (area !== 'payments' || f.areas.products.length)) {
      Object.assign(p.paths, found.paths);
      claim(...features);
      d.found.push(
        `- ${what}: ${Object.entries(found.paths)
          .map(([k, v]) => `paths.${k} "${v}"`)
          .join(', ')} (${found.layout})`,
      );
    } else notFound(what, found.tried, claimHow(features[0], keys));
  }
  if (p.features.includes('accounts') && !p.features.includes('consents')) {
    p.features = p.features.filter((x) => x !== 'accounts');
    delete p.paths.accounts;
    d.found = d.found.filter((l) => !l.startsWith('- account information:'));
    d.notFound.push(
      `- account information: found at paths.accounts "${a.accounts.paths?.accounts}", not claimed: its checks read under a consent, and no consents path answered. To claim it: ${claimHow('consents', 'paths.consents')}, then ${claimHow('accounts', 'paths.accounts')}.`,
    );
  }
  if (p.features.length) claim('headers');
  if (a.directory.paths && !a.directory.paths.cities)
    d.review.push('- `paths.cities`, `paths.countries`: the directory answered its bank list only: set the others.');
}

/** Payment services and products: what answered, else the OpenAPI file's enums or the ASPSP detail. */
function draftPayments(f: Findings, p: Draft, reference: Draft, d: Drafted) {
  if (!p.features.includes('payments')) {
    delete p.paths.payments;
    return;
  }
  const products = f.areas.products.length ? f.areas.products : (f.openapi?.products ?? f.detailProducts ?? []);
  const kept = products.filter((x) => reference.payments.products.includes(x));
  if (kept.length) p.payments.products = kept;
  const services = f.areas.services.filter((s) => reference.payments.services.includes(s));
  if (services.length) p.payments.services = services;
  d.found.push(`- payments: services ${p.payments.services.join(', ')}; products ${p.payments.products.join(', ')}`);
  delete p.payments.cancellationAuthorisation;
  d.notFound.push(
    `- cancellations that need an authorisation: not probed (it needs a payment), not claimed. To claim it: ${claimHow('payments.cancellation-authorisation', 'payments.cancellationAuthorisation (the products whose cancellation the PSU authorises)')}.`,
  );
  if (f.answers.psuCorporateId) p.features.push('payments.multilevel-sca');
  else
    d.notFound.push(
      `- multilevel SCA of payments: not claimed (no corporate test PSU). To claim it: ${claimHow('payments.multilevel-sca', 'PSU_CORPORATE_ID (--psu-corporate-id) and payments.multilevelSca')}.`,
    );
  d.notFound.push(
    `- payments executed as soon as authorised: not probed (it needs a payment), not claimed. To claim it: ${claimHow('payments.executed-on-authorisation', 'payments.executedOnAuthorisation')}.`,
  );
  delete p.payments.executedOnAuthorisation;
  draftAccounts(f.consent?.accounts, p, d);
}

/** The test accounts: an account the consent showed, per product of its currency; the reference's where none fits. */
function draftAccounts(shown: ShownAccount[] | undefined, p: Draft, d: Drafted) {
  const accounts = p.payments.accounts ?? {};
  const ibans = (shown ?? []).filter((x) => x.iban);
  const taken: string[] = [];
  for (const product of Object.keys(accounts)) {
    if (!p.payments.products.includes(product)) {
      delete accounts[product];
      continue;
    }
    // An IBAN debtor is replaced by a shown IBAN of its currency; a BBAN debtor (a domestic product's) is kept.
    const reference = accounts[product].debtorAccount as { iban?: string; currency?: string } | undefined;
    const own = reference?.iban ? ibans.find((x) => x.currency === reference.currency) : undefined;
    if (own) {
      accounts[product].debtorAccount = { iban: own.iban, ...(own.currency ? { currency: own.currency } : {}) };
      taken.push(product);
    }
  }
  if (taken.length) {
    d.found.push(`- payments.accounts: the debtor of ${taken.join(', ')} is an account the probe consent showed`);
    // Every value copied from the reference sandbox is listed to review: the creditors beside those debtors too.
    d.review.push(
      `- \`payments.accounts\` of ${taken.join(', ')}: the creditor (creditorAccount, creditorAgent) is the reference sandbox's: name one the bank pays to.`,
    );
  }
  const left = Object.keys(accounts).filter((x) => !taken.includes(x));
  if (left.length)
    d.review.push(
      `- \`payments.accounts\` of ${left.join(', ')}: the reference sandbox's test accounts${shown ? ' (no account the consent showed fits their currency)' : ''}: name the bank's (or remove a product's entry: its accounts are then generated).`,
    );
}

/** SCA: the methods and approaches one consent offered, the features they claim, and the PSU agent. */
function draftSca(f: Findings, p: Draft, reference: Draft, d: Drafted) {
  const c = f.consent;
  const approaches = (c?.approaches ?? []).filter((x) => x === 'REDIRECT' || x === 'DECOUPLED');
  const consents = p.features.includes('consents');
  if (consents && approaches.length) {
    p.sca.approaches = approaches;
    if (approaches.includes('REDIRECT')) p.features.push('sca.redirect');
    if (approaches.includes('DECOUPLED')) p.features.push('sca.decoupled');
    d.found.push(
      `- sca.approaches: ${approaches.join(', ')} (ASPSP-SCA-Approach of the probe consent's authorisations)`,
    );
  } else {
    delete p.sca.approaches;
    const why = c
      ? `the probe consent showed none${c.problem ? ` (${c.problem})` : ''}`
      : f.answers.probeConsent
        ? 'no consent probed: no consents path answered'
        : 'no consent probed (--probe-consent creates one)';
    d.notFound.push(
      `- the redirect and decoupled SCA: not found (${why}), not claimed. To claim them: add "sca.redirect" and/or "sca.decoupled" to features and list REDIRECT and/or DECOUPLED in sca.approaches.`,
    );
  }
  const methods = c?.methods.filter((m) => reference.sca.methods.includes(m)) ?? [];
  if (methods.length) {
    p.sca.methods = methods;
    d.found.push(`- sca.methods: ${c!.methods.join(', ')} (the probe consent's authorisation)`);
  } else
    d.review.push(
      `- \`sca.methods\`: the reference sandbox's${c ? ` (the consent's authorisation offered ${c.methods.join(', ') || 'no method'}${c.problem ? `; ${c.problem}` : ''})` : " (--probe-consent reads the bank's from one consent, deleted again)"}: list the methods the bank offers.`,
    );
  if (consents && p.features.includes('sca.decoupled') && methods.some((m) => m.startsWith('mbid_animated_qr')))
    p.features.push('sca.animated-qr');
  else
    d.notFound.push(
      `- animated QR codes (decoupled): not found, not claimed. To claim it: ${claimHow('sca.animated-qr', 'sca.methods with mbid_animated_qr_token and mbid_animated_qr_image')}.`,
    );
  delete p.sca.failingPsuId;
  d.review.push(
    "- `sca.failingPsuId`: not set (the reference sandbox's is its own): name a test PSU whose SCA the bank fails, to judge the failure path.",
  );
  p.sca.psuAgent = f.agent.psuAgent;
  if (f.agent.browser) p.sca.browser = f.agent.browser;
  else delete p.sca.browser;
}

/** OAuth2: where the bank serves it, and the feature when it answered; a bank that takes no authentication. */
function draftOAuth(f: Findings, p: Draft, d: Drafted) {
  if (f.authentication?.mode === 'none') {
    p.authentication = 'none';
    d.found.push(
      `- \`authentication\`: "none": ${f.authentication.seen}. No token is fetched or sent, and the checks of tokens (Authorization, the token endpoint, a token's scope, another TPP's resources) read "not claimed". A bank that takes tokens after all: remove it and set CLIENT_ID and CLIENT_SECRET, or ACCESS_TOKEN.`,
    );
  } else if (f.answers.auth === 'none')
    d.review.push(
      `- authentication: no credentials were given (--auth=none), but the bank does not answer without them (${f.authentication?.seen ?? 'not asked'}): set CLIENT_ID and CLIENT_SECRET, or ACCESS_TOKEN, in .env.`,
    );
  p.oauth = { tokenPath: f.oauth.tokenPath, authorizePath: f.oauth.authorizePath };
  d.found.push(
    `- OAuth2: TARGET_AUTH_URL ${f.oauth.authUrl}, oauth.tokenPath "${f.oauth.tokenPath}", oauth.authorizePath "${f.oauth.authorizePath}" (${f.oauth.from})`,
  );
  for (const n of f.oauth.notes) d.review.push(`- OAuth2: ${n}.`);
  if (f.tokenProblem) d.review.push(`- no application token: ${f.tokenProblem}.`);
  if (f.oauth.found && p.features.includes('sca.redirect')) p.features.push('oauth');
  else
    d.notFound.push(
      `- the OAuth2 redirect checks: not claimed (${f.oauth.found ? 'no redirect approach' : 'no authorisation server found'}). To claim them: ${claimHow('oauth', 'TARGET_AUTH_URL, oauth.tokenPath and oauth.authorizePath')} (with sca.redirect).`,
    );
}

/** Signing, direct debit files and the other options the probe cannot see; consents.afterDelete as the probe consent showed it. */
export function draftOptions(
  f: Pick<Findings, 'answers' | 'required' | 'consent'>,
  p: Draft,
  d: Pick<Drafted, 'found' | 'notFound' | 'review'>,
) {
  const a = f.answers;
  if (a.signingCert) p.features.push('signing', ...(a.testPkiDir ? ['signing.test-certificates'] : []));
  else
    d.notFound.push(
      `- request signing: not claimed. To claim it: ${claimHow('signing', 'TPP_SIGNING_CERT_FILE and TPP_SIGNING_KEY_FILE (--signing-cert, --signing-key: the QSealC and its key)')}.`,
    );
  if (p.features.includes('direct-debit')) {
    d.notFound.push(
      `- direct debit collection files: not probed, not claimed. To claim it: ${claimHow('direct-debit.files', 'directDebit.files')}.`,
    );
    delete (p.directDebit as Record<string, unknown> | undefined)?.files;
    d.review.push(
      "- `directDebit.rejectedMandateId`: the reference sandbox's: name the bank's test mandate it rejects.",
    );
  } else delete p.directDebit;
  if (f.required.length) {
    p.requiredHeaders = f.required.map(({ name, generated, fromEnv }) => ({
      name,
      ...(generated ? { generated } : { fromEnv }),
    }));
    for (const h of f.required)
      d.found.push(
        `- requiredHeaders: ${h.name} (${h.generated ? `generated: ${h.generated}` : `from .env key ${h.fromEnv}: set it`}), proposed because the bank refused a call naming it: ${h.seen}`,
      );
  }
  d.review.push(
    "- `accounts.readerPsuIds`, `accounts.isolatedPsuIds`, `consents.isolatedPsuIds`: the reference sandbox's test PSUs: name the bank's.",
  );
  // What the probe consent's delete showed: a deleted consent gone (403, 404, 410) or read terminatedByTpp.
  const after = f.consent?.afterDelete;
  const consents = p.consents as Record<string, unknown> | undefined;
  if (after && consents) {
    const reading = /^(403|404|410)\b/.test(after)
      ? 'gone'
      : /terminatedByTpp/.test(after)
        ? 'terminatedByTpp'
        : undefined;
    if (reading) {
      consents.afterDelete = reading;
      d.found.push(`- consents.afterDelete: "${reading}": the probe consent, deleted, then read ${after}`);
    }
  }
  // Every other value kept from the reference sandbox, listed to review.
  const kept = COPIED.filter(
    ([section, key]) => (p[section] as Record<string, unknown> | undefined)?.[key] !== undefined,
  );
  if (kept.length)
    d.review.push(
      `- ${kept.map(([section, key]) => `\`${section}.${key}\` (${JSON.stringify((p[section] as Record<string, unknown>)[key])})`).join(', ')}: the reference sandbox's: set the bank's (or remove a field to take the schema's default).`,
    );
}

/** Values of the reference profile a draft keeps as they are, which no probe reads: listed to review. */
const COPIED = [
  ['timeouts', 'scaMs'],
  ['sca', 'finaliseWithinMs'],
  ['consents', 'maxFrequencyPerDay'],
  ['accounts', 'deltaAccess'],
  ['payments', 'cancellationAuthorisation'],
  ['payments', 'executedOnAuthorisation'],
  ['payments', 'multilevelSca'],
] as const;

/** The options of what a bank may decline (profiles/value-spaces.schema.ts), left to their defaults in a draft. */
const DECLINE_OPTIONS = [
  ['consents', 'combinedSessions'],
  ['payments', 'executionHorizonDays'],
  ['payments', 'nonBusinessDays'],
  ['payments', 'amountForms'],
  ['directDebit', 'leadTimeDays'],
] as const;

/** The draft profile and its notes, from the reference profile's layout and what the bank answered. */
export function draftProfile(f: Findings): Drafted {
  const reference = readReference();
  const p = JSON.parse(JSON.stringify(reference)) as Draft;
  const d: Drafted = { profile: p, notFound: [], found: [], review: [], readings: [] };
  p.name = f.answers.name;
  p.description = `Drafted by obg-conformance init from ${f.answers.baseUrl} on ${today()}: review every claim, then remove "draft".`;
  p.draft = true;
  p.features = [];
  p.paths = {};
  draftAreas(f, p, d);
  draftPayments(f, p, reference, d);
  draftSca(f, p, reference, d);
  draftOAuth(f, p, d);
  draftOptions(f, p, d);
  // What a bank may decline: the reference sandbox takes every value; a bank keeps the defaults until it says more.
  for (const [section, key] of DECLINE_OPTIONS) delete (p[section] as Record<string, unknown> | undefined)?.[key];
  d.readings = readingNotes(p, f.consent);
  // Keys in the schema's order, the draft marker first.
  const { name, description, draft, ...rest } = p;
  d.profile = { name, description, draft, ...rest } as Draft;
  return d;
}
