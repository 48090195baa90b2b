import type { Catalogue } from '../../harness/catalogue.js';
import type { Fault } from '../../sandbox/faults/fault.js';
import type { RequirementResult } from '../../harness/reporter/verdicts.js';

/** One row of the fault matrix table. */
export interface FaultRow {
  fault: string;
  description: string;
  expected: string[];
  /** Requirements that came out failed or warning. */
  failed: string[];
  /** Named requirements that did not come out as they must (failed for a MUST, warning for a SHOULD). */
  missed: string[];
  /** Other requirements that came out failed, warning or broken. */
  stray: string[];
  /** Named requirements that failed with no message worth the name. */
  silent: string[];
  caught: boolean;
  seconds: number;
}

const firstLine = (r: RequirementResult) =>
  (r.tests.find((t) => t.message)?.message ?? '')
    .split('\n')
    .find((l) => l.trim())
    ?.slice(0, 200) ?? '';

/** Judges one fault's run: exactly the requirements it names fail (MUST) or warn (SHOULD), nothing else. */
export function judgeFault(
  fault: Fault,
  requirements: RequirementResult[],
  catalogue: Catalogue,
  seconds: number,
  error?: string,
): FaultRow {
  const verdicts = new Map(requirements.map((r) => [r.id, r]));
  const want = (id: string) => (catalogue.byId.get(id)?.level === 'MUST' ? 'failed' : 'warning');
  const missed = fault.breaks
    .filter((id) => verdicts.get(id)?.verdict !== want(id))
    .map(
      (id) =>
        `${id}: ${verdicts.get(id)?.verdict ?? 'absent'} (expected ${want(id)})${verdicts.get(id) ? '' : " — is the area in the fault's projects?"}`,
    );
  const stray = requirements
    // Untested (no test names it) is a gap of the catalogue, the same with or without the fault: the green run reports it.
    .filter(
      (r) =>
        !fault.breaks.includes(r.id) && (r.verdict === 'failed' || r.verdict === 'warning' || r.verdict === 'broken'),
    )
    .map((r) => `${r.id}: ${r.verdict}${firstLine(r) ? ` — ${firstLine(r)}` : ''}`);
  const silent = fault.breaks.filter((id) => {
    const r = verdicts.get(id);
    return (
      r && (r.verdict === 'failed' || r.verdict === 'warning') && !r.tests.some((t) => t.message.trim().length > 20)
    );
  });
  if (error) missed.unshift(`the run did not judge this fault: ${error}`);
  return {
    fault: fault.id,
    description: fault.description,
    expected: fault.breaks,
    failed: requirements.filter((r) => r.verdict === 'failed' || r.verdict === 'warning').map((r) => r.id),
    missed,
    stray,
    silent,
    caught: missed.length === 0 && stray.length === 0 && silent.length === 0,
    seconds,
  };
}
