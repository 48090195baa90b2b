import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { ErrorObject } from 'ajv';
import { validatorOf } from './ajv.js';
import { ConfigError } from './errors.js';
import { fromRoot } from './paths.js';

export type PaymentService = 'payments' | 'bulk-payments' | 'periodic-payments';
export type PaymentProduct =
  'sepa-credit-transfers' | 'domestic' | 'international' | 'international-tp' | 'swedish-giro';

/** A target profile (profiles/profile.schema.json): what the target claims. */
export interface Profile {
  name: string;
  description?: string;
  features: string[];
  psuContext: 'private' | 'corporate';
  paths: {
    aspsps: string;
    cities: string;
    countries: string;
    accounts?: string;
    consents?: string;
    payments?: string;
    signingBaskets?: string;
    directDebitCreate?: string;
    directDebitPayments?: string;
  };
  consents?: { afterDelete?: 'terminatedByTpp' | 'gone'; maxFrequencyPerDay?: number; isolatedPsuIds?: string[] };
  accounts?: { deltaAccess?: boolean; isolatedPsuIds?: string[] };
  payments?: {
    services?: PaymentService[];
    products?: PaymentProduct[];
    startAuthorisationBody?: 'flow-guide' | 'operations-table';
    /** Products whose cancellation needs an authorisation (202 with startAuthorisation). */
    cancellationAuthorisation?: PaymentProduct[];
    /** Services whose undated payments are executed once authorised (past the cancellation time limit). */
    executedOnAuthorisation?: PaymentService[];
    /** Multilevel SCA in a corporate context: signers that must each finalise an authorisation. */
    multilevelSca?: { signers: number };
    /** How a swedish-giro payment names its creditor (default creditorGiro). */
    giroCreditor?: 'creditorGiro' | 'creditorAccount';
  };
  sca?: {
    approaches?: ('REDIRECT' | 'DECOUPLED' | 'EMBEDDED')[];
    methods?: string[];
    psuAgent?: 'form' | 'none';
    finaliseWithinMs?: number;
    failingPsuId?: string;
  };
  directDebit?: {
    rejectedMandateId?: string;
    creditor?: { name: string; iban: string; bic: string; creditorId: string };
    files?: { path: string; referencePattern: string };
  };
  signatures?: { mandated?: boolean };
  timeouts: { requestMs: number; scaMs: number };
}

export function profileFile(nameOrPath: string): string {
  if (nameOrPath.endsWith('.json')) return isAbsolute(nameOrPath) ? nameOrPath : fromRoot(nameOrPath);
  return fromRoot('profiles', `${nameOrPath}.json`);
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

/** Loads and validates a profile; any problem is a ConfigError naming the field. */
export function loadProfile(nameOrPath: string): Profile {
  const file = profileFile(nameOrPath);
  if (!existsSync(file)) throw new ConfigError(`TARGET_PROFILE: no profile "${nameOrPath}" (looked for ${file}).`);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigError(`TARGET_PROFILE: ${file} is not valid JSON: ${(err as Error).message}`);
  }
  const validate = validatorOf(fromRoot('profiles', 'profile.schema.json'));
  if (!validate(data)) {
    const problems = (validate.errors ?? []).map(describeError);
    throw new ConfigError(`profile ${file} is invalid:\n  - ${[...new Set(problems)].join('\n  - ')}`);
  }
  return data as Profile;
}
