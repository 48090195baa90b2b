import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { ErrorObject } from 'ajv';
import { profileSchema, type Profile } from '../../profiles/profile.schema.js';
import { validatorOf } from './ajv.js';
import { ConfigError } from './errors.js';
import { fromRoot } from './paths.js';

export type { PaymentProduct, PaymentService } from '../../schemas/payments/products.js';

/** A target profile (what the target claims) and a variant's claims over it: types of profiles/profile.schema.ts. */
export type { Profile, ProfileClaims } from '../../profiles/profile.schema.js';

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
  const validate = validatorOf<Profile>(profileSchema);
  if (!validate(data)) {
    const problems = (validate.errors ?? []).map(describeError);
    throw new ConfigError(`profile ${file} is invalid:\n  - ${[...new Set(problems)].join('\n  - ')}`);
  }
  return data;
}
