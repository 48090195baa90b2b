import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { ErrorObject } from 'ajv';
import { profileSchema, type Profile, type ProfileFile } from '../../profiles/profile.schema.js';
import { validatorOf } from './ajv.js';
import { digestOf, readCached, writeCached } from './cache.js';
import { ConfigError } from './errors.js';
import { fromRoot } from './paths.js';
import { ibanProblem } from '../../spec/iso13616.js';

export type { PaymentProduct, PaymentService } from '../../schemas/payments/products.js';

/**
 * A target profile as loaded (its defaults applied), as its file says it, and a variant's claims
 * over it: types of profiles/profile.schema.ts.
 */
export type { Profile, ProfileClaims, ProfileFile } from '../../profiles/profile.schema.js';

/**
 * A profile's file: a path (ending in .json) relative to the working folder; a name is
 * profiles/<name>.json of the working folder when there is one, else the suite's own.
 */
export function profileFile(nameOrPath: string, cwd = process.cwd()): string {
  if (nameOrPath.endsWith('.json')) return resolve(cwd, nameOrPath);
  const own = resolve(cwd, 'profiles', `${nameOrPath}.json`);
  return existsSync(own) ? own : fromRoot('profiles', `${nameOrPath}.json`);
}

/**
 * The one name of a profile in every message and report: its file relative to the working folder
 * (`profiles/bank.json`) where it lies there, whether TARGET_PROFILE named it `bank` or
 * `profiles/bank.json`; the suite's own profile from an installed package by its name
 * (`reference`); else the file's absolute path. Every form is one TARGET_PROFILE takes back.
 */
export function profileLabel(nameOrPath: string, cwd = process.cwd()): string {
  const file = profileFile(nameOrPath, cwd);
  const inside = relative(cwd, file);
  if (inside && !inside.startsWith('..') && !isAbsolute(inside) && !inside.split(sep).includes('node_modules'))
    return inside.split(sep).join('/');
  if (!nameOrPath.endsWith('.json') && file === fromRoot('profiles', `${nameOrPath}.json`)) return nameOrPath;
  return file;
}

/** JSON with every object's keys in order: the same content gives the same text whatever its layout. */
const canonical = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(canonical).join(',')}]`
    : v && typeof v === 'object'
      ? `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
          .join(',')}}`
      : JSON.stringify(v);

/**
 * The SHA-256 of what a profile says (its JSON, keys ordered, without layout): the history
 * compares a run only with runs of the same target and the same profile content, whatever the
 * profile's name or file. Undefined when the file cannot be read as JSON.
 */
export function profileSha256(nameOrPath: string, cwd = process.cwd()): string | undefined {
  try {
    const data: unknown = JSON.parse(readFileSync(profileFile(nameOrPath, cwd), 'utf8'));
    return createHash('sha256').update(canonical(data)).digest('hex');
  } catch {
    return undefined;
  }
}

const describeError = (e: ErrorObject): string => {
  const field = e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : '(top level)';
  const extra =
    e.keyword === 'additionalProperties'
      ? ` "${(e.params as { additionalProperty: string }).additionalProperty}" is not a profile field`
      : e.keyword === 'enum'
        ? ` must be one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`
        : ` ${e.message}`;
  return `${field}:${extra}`;
};

type Options = Pick<
  ProfileFile,
  'authentication' | 'tokens' | 'signatures' | 'payments' | 'consents' | 'signingBaskets'
>;

/**
 * The features a profile's options bring, beside those it lists: the other reading of an option
 * is judged under a feature of its own, and the option alone says whether the target claims it.
 * One place for them, so that a profile, a proof case's claims and the strict run cannot set the
 * option without the feature or the feature without the option.
 */
export const OPTION_FEATURES: { feature: string; claimedBy: (o: Partial<Options>) => boolean }[] = [
  // A bank that takes no authentication (authentication "none") claims no check of a token.
  { feature: 'authentication', claimedBy: (o) => o.authentication !== 'none' },
  { feature: 'tokens.psu-reads', claimedBy: (o) => o.tokens?.accountReads === 'psu' },
  { feature: 'signing.mandated', claimedBy: (o) => o.signatures?.mandated === true },
  {
    feature: 'payments.psu-data-required',
    claimedBy: (o) => o.payments?.startAuthorisationBody === 'operations-table',
  },
  { feature: 'consents.multilevel-sca', claimedBy: (o) => o.consents?.multilevelSca !== undefined },
  // A delete-consent answer with a body (message-and-links, section B) is judged where the profile takes one.
  {
    feature: 'consents.delete-body',
    claimedBy: (o) => o.consents?.deleteAnswer !== undefined && o.consents.deleteAnswer !== 'no-content',
  },
  // The status a deleted basket still reads with is judged where the profile does not pin it gone.
  {
    feature: 'signing-baskets.delete-readable',
    claimedBy: (o) => o.signingBaskets?.afterDelete !== undefined && o.signingBaskets.afterDelete !== 'gone',
  },
];

/** The features a profile (or a case's claims over one) brings by its options. */
export const featuresOfOptions = (o: Partial<Options>): string[] =>
  OPTION_FEATURES.filter((f) => f.claimedBy(o)).map((f) => f.feature);

/** The features only an option brings: a profile's own list never claims one (the option alone says). */
const OPTION_ONLY = new Set(OPTION_FEATURES.map((f) => f.feature));

/**
 * A profile with the features its options bring, and none its options do not (a proof case's
 * claims may set an option over a profile that brought its feature).
 */
export function withOptionFeatures<P extends Profile>(p: P): P {
  return {
    ...p,
    features: [...new Set([...p.features.filter((f) => !OPTION_ONLY.has(f)), ...featuresOfOptions(p)])],
  };
}

/**
 * Loads and validates a profile, and applies the schema's defaults (profiles/profile.schema.ts,
 * `default`): what it returns has every defaulted field. Any problem is a ConfigError naming the field.
 */
export function loadProfile(nameOrPath: string): Profile {
  const file = profileFile(nameOrPath);
  const label = profileLabel(nameOrPath);
  if (!existsSync(file)) throw new ConfigError(`TARGET_PROFILE: no profile "${nameOrPath}" (looked for ${file}).`);
  let data: unknown;
  const text = readFileSync(file, 'utf8');
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`TARGET_PROFILE: ${label} is not valid JSON: ${(err as Error).message}`);
  }
  // A profile found valid once is not validated again (compiling the schema cost every worker a
  // third of a second): it is kept with its defaults applied, named by the digest of the text and
  // of the schema (cache.ts).
  const mark = `profile-resolved-${digestOf([], [text, JSON.stringify(profileSchema)])}.json`;
  const kept = readCached<Profile>(mark);
  if (kept && typeof kept === 'object') return withOptionFeatures(kept);
  // Validating fills in each absent field's default (ajv's useDefaults), sections included.
  const validate = validatorOf<Profile>(profileSchema, { applyDefaults: true });
  if (!validate(data)) {
    const problems = (validate.errors ?? []).map(describeError);
    throw new ConfigError(`profile ${label} is invalid:\n  - ${[...new Set(problems)].join('\n  - ')}`);
  }
  // The directory's paths are needed only where the profile claims the directory.
  const missing = (['aspsps', 'cities', 'countries'] as const).filter((k) => !data.paths[k]);
  if (data.features.includes('directory') && missing.length)
    throw new ConfigError(
      `profile ${label} is invalid:\n  - paths: the profile claims directory, so it needs ${missing.join(', ')}`,
    );
  const contradiction = approachContradiction(data);
  if (contradiction) throw new ConfigError(`profile ${label} is invalid:\n  - sca.approaches: ${contradiction}`);
  const unauthenticated = authenticationContradiction(data);
  if (unauthenticated) throw new ConfigError(`profile ${label} is invalid:\n  - ${unauthenticated}`);
  const badIban = accountProblem(data);
  if (badIban) throw new ConfigError(`profile ${label} is invalid:\n  - ${badIban}`);
  writeCached(mark, data);
  return withOptionFeatures(data);
}

/** The SCA approaches the suite judges, each by the checks of its feature. */
const APPROACH_FEATURES = { REDIRECT: 'sca.redirect', DECOUPLED: 'sca.decoupled' } as const;

/**
 * `sca.approaches` steers the SCA checks through the features of its approaches: where it is given,
 * the redirect (sca.redirect) and decoupled (sca.decoupled) checks run exactly for the approaches
 * it lists, so an approach listed without its feature, or a feature claimed without its approach,
 * is a contradiction the run stops on (EMBEDDED has no checks: the specification shows no
 * embedded flow). Undefined when the two agree or the list is not given.
 */
export function approachContradiction(p: Pick<Profile, 'features' | 'sca'>): string | undefined {
  const listed = p.sca?.approaches;
  if (!listed) return undefined;
  for (const [approach, feature] of Object.entries(APPROACH_FEATURES)) {
    const has = listed.includes(approach as keyof typeof APPROACH_FEATURES);
    if (has && !p.features.includes(feature))
      return `lists ${approach}, but features does not claim ${feature} (claim it, or leave ${approach} out)`;
    if (!has && p.features.includes(feature))
      return `features claims ${feature}, but the list leaves ${approach} out (add it, or drop the feature)`;
  }
  return undefined;
}

/** The first IBAN of payments.accounts that ISO 13616 refuses (country, length, check digits), named by its field; undefined when none. A national check is no part of it. */
export function accountProblem(p: Pick<Profile, 'payments'>): string | undefined {
  for (const [product, data] of Object.entries(p.payments?.accounts ?? {}))
    for (const side of ['debtorAccount', 'creditorAccount'] as const) {
      const iban = data?.[side]?.iban;
      const problem = iban === undefined ? undefined : ibanProblem(iban);
      if (problem)
        return `payments.accounts.${product}.${side}.iban: "${iban}" is not a valid IBAN (ISO 13616): it ${problem}`;
    }
  return undefined;
}

/** A bank without authentication has no PSU token to send: tokens.accountReads or paymentReads "psu" contradicts it. */
export function authenticationContradiction(p: Pick<Profile, 'authentication' | 'tokens'>): string | undefined {
  if (p.authentication !== 'none') return undefined;
  const psu = (['accountReads', 'paymentReads'] as const).filter((k) => p.tokens?.[k] === 'psu');
  return psu.length
    ? `authentication: "none" (the bank takes no token), but tokens.${psu.join(' and tokens.')} "psu" sends the PSU's token (write "application", or drop "none")`
    : undefined;
}
