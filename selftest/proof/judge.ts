import type { Catalogue } from '../../harness/catalogue/catalogue.js';
import type { RequirementResult } from '../../harness/reporter/verdicts.js';
import type { ProofCase } from './plan.js';

/** One row of the self-proof's table. */
export interface ProofRow {
  id: string;
  kind: ProofCase['kind'];
  description: string;
  /** A fault's breaks; a variant's permitted warnings. */
  expected: string[];
  /** Requirements that came out failed or warning. */
  failed: string[];
  /** A fault's requirements that did not come out as they must (failed for a MUST, warning for a SHOULD). */
  missed: string[];
  /** Other requirements that came out failed, warning or broken. */
  stray: string[];
  /** A fault's requirements that failed with no message worth the name. */
  silent: string[];
  /** Caught (a fault) or conformant (a variant). */
  ok: boolean;
  tests: number;
  seconds: number;
}

const firstLine = (r: RequirementResult) =>
  (r.tests.find((t) => t.message)?.message ?? '')
    .split('\n')
    .find((l) => l.trim())
    ?.slice(0, 200) ?? '';

/**
 * Judges one case's run. A fault: exactly the requirements it breaks fail (MUST) or warn
 * (SHOULD), each with a message that explains itself, and nothing else fails, warns or breaks
 * (a check blocked by one of them is no stray failure).
 * A variant: nothing fails or breaks, and nothing warns but its `warns`.
 */
export function judgeCase(
  c: ProofCase,
  requirements: RequirementResult[],
  catalogue: Catalogue,
  run: { tests: number; seconds: number; error?: string },
): ProofRow {
  const verdicts = new Map(requirements.map((r) => [r.id, r]));
  const want = (id: string) => (catalogue.byId.get(id)?.level === 'MUST' ? 'failed' : 'warning');
  const missed = c.breaks
    .filter((id) => verdicts.get(id)?.verdict !== want(id))
    .map((id) => `${id}: ${verdicts.get(id)?.verdict ?? 'not run'} (expected ${want(id)})`);
  // Blocked is fine where every root cause is a requirement the fault breaks (it failed first).
  const blockedElsewhere = (r: RequirementResult) =>
    r.verdict === 'blocked' && !(r.blockedBy ?? []).every((id) => c.breaks.includes(id));
  const stray = requirements
    // Untested (no test names it) is a gap of the catalogue, the same with or without the case: the green run reports it.
    .filter(
      (r) =>
        !c.breaks.includes(r.id) &&
        (r.verdict === 'failed' ||
          r.verdict === 'broken' ||
          blockedElsewhere(r) ||
          (r.verdict === 'warning' && !c.warns.includes(r.id))),
    )
    .map((r) => `${r.id}: ${r.verdict}${firstLine(r) ? ` — ${firstLine(r)}` : ''}`);
  const silent = c.breaks.filter((id) => {
    const r = verdicts.get(id);
    return (
      r && (r.verdict === 'failed' || r.verdict === 'warning') && !r.tests.some((t) => t.message.trim().length > 20)
    );
  });
  if (run.error) missed.unshift(`the run did not judge this ${c.kind}: ${run.error}`);
  return {
    id: c.id,
    kind: c.kind,
    description: c.description,
    expected: c.kind === 'fault' ? c.breaks : c.warns,
    failed: requirements.filter((r) => r.verdict === 'failed' || r.verdict === 'warning').map((r) => r.id),
    missed,
    stray,
    silent,
    ok: missed.length === 0 && stray.length === 0 && silent.length === 0,
    tests: run.tests,
    seconds: run.seconds,
  };
}
