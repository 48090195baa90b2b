import type { FastifyInstance } from 'fastify';
import accessVariants from './access.js';
import authorisationVariants from './authorisations.js';
import behaviourVariants from './behaviours.js';
import describedVariants from './described.js';
import exactVariants from './exact.js';
import codeVariants from './codes.js';
import combinedVariants from './combined.js';
import declineVariants from './declines.js';
import directDebitVariants from './direct-debit.js';
import fieldVariants from './fields.js';
import freedomVariants from './freedoms.js';
import forwardedVariants from './forwarded.js';
import lateStatusVariants from './late-status.js';
import loginPageVariants from './login-page.js';
import multilevelVariants from './multilevel.js';
import omittedVariants from './omitted.js';
import redirectVariants from './redirect.js';
import testDataVariants from './test-data.js';
import textVariants from './text.js';
import wireVariants from './wire.js';
import type { Variant } from './variant.js';

export type { Variant } from './variant.js';

/** Every variant the sandbox knows, one list per kind of freedom the specification gives. */
export const VARIANTS: Variant[] = [
  ...authorisationVariants,
  ...codeVariants,
  ...fieldVariants,
  ...behaviourVariants,
  ...accessVariants,
  ...omittedVariants,
  ...textVariants,
  ...directDebitVariants,
  ...declineVariants,
  ...lateStatusVariants,
  ...exactVariants,
  ...combinedVariants,
  ...multilevelVariants,
  ...freedomVariants,
  ...redirectVariants,
  ...forwardedVariants,
  ...describedVariants,
  ...testDataVariants,
  ...wireVariants,
];

/**
 * Variants for the PSU agents (sca.psuAgent browser or manual): outside VARIANTS, so the default
 * self-proof (whose suite plays the PSU with the form agent) never runs them; their own self-test
 * (selftest/agents/) starts the sandbox with them. Found by id like the others.
 */
export const AGENT_VARIANTS: Variant[] = [...loginPageVariants];

export function findVariant(id: string): Variant {
  const v = [...VARIANTS, ...AGENT_VARIANTS].find((x) => x.id === id);
  if (!v) throw new Error(`unknown sandbox variant "${id}" (known: ${VARIANTS.map((x) => x.id).join(', ')})`);
  return v;
}

export function installVariants(app: FastifyInstance, ids: string[]): void {
  for (const id of ids) findVariant(id).install(app);
}
