import type { FastifyInstance } from 'fastify';
import type { ProfileClaims } from '../../profiles/profile.schema.js';

/**
 * A named fault: one behaviour of the sandbox broken on purpose, so the self-tests can show
 * that the suite's checks fail when a target breaks their requirement. Faults sit apart from
 * the clean code: each installs hooks (or wraps a service) on the built app.
 */
export interface Fault {
  id: string;
  description: string;
  /** Requirement ids that must come out failed (MUST) or warning (SHOULD) with the fault on; nothing else may. */
  breaks: string[];
  /**
   * The phase that catches it where the hand-written checks pass: 'properties', the generated
   * phase (harness/properties/, tests/<area>/properties/, docs/generated.md). Absent: the
   * hand-written checks catch it. A fault is filed by its area either way.
   */
  caughtBy?: 'properties';
  /**
   * Profile options the suite runs this fault under, over the target profile's (section by
   * section): a fault that breaks the other reading of a contradiction claims that reading.
   */
  claims?: ProfileClaims;
  install(app: FastifyInstance): void;
}
