import type { FastifyInstance } from 'fastify';
import type { ProfileClaims } from '../../profiles/profile.schema.js';

/**
 * A named variant: a behaviour the specification allows that the reference sandbox does not show
 * by default. The other half of the self-proof: with a variant on, the suite must stay conformant
 * (a fault must fail; a variant must pass), so a check stricter than the specification shows.
 */
export interface Variant {
  id: string;
  description: string;
  /** The words of the specification (or of the reference facts) that allow the behaviour. */
  allows: string;
  /** Requirements whose checks meet the behaviour: the self-proof runs the spec files that check them. */
  concerns: string[];
  /** SHOULD requirements it may warn on; nothing else may fail or warn. */
  warns: string[];
  /**
   * Profile options the suite runs this variant under, over the target profile's (section by
   * section): a variant showing the other reading of a contradiction claims that reading.
   */
  claims?: ProfileClaims;
  install(app: FastifyInstance): void;
}
