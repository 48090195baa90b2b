import type { Level, Requirement } from '../catalogue/catalogue.js';

export type TestVerdict = 'passed' | 'failed' | 'warning' | 'skipped' | 'broken' | 'blocked';
export type RequirementVerdict = TestVerdict | 'untested';
export type RunVerdict = 'conformant' | 'not-conformant' | 'incomplete';

export interface TestOutcome {
  title: string;
  file: string;
  status: TestVerdict;
  message: string;
  /** A blocked test: the requirement whose step failed first (the root cause). */
  blockedBy?: string;
  /** A refusal (passed or failed): the requirements that judge the same requests made valid (its positive controls). */
  controls?: string[];
  /**
   * A refusal: the kinds of request it expected refused and did not see accepted in its own test
   * (harness/operations/controls.ts `requestKind`); a call of each accepted anywhere in the run controls it.
   */
  refusedKinds?: string[];
  /**
   * What the test could not judge beside its verdict, with the root cause of each: an operation of
   * a rule over operations whose prerequisites failed (harness/operations/rules.ts), and the like.
   */
  notJudged?: string[];
  /**
   * One shard of a run: a refusal blocked (or not judged) because this shard saw no call of its
   * kind accepted, with what it had judged; `merge` gives it back where another shard saw that
   * kind accepted (scripts/merge.ts).
   */
  deferred?: { status: TestVerdict; message: string };
}

export interface RequirementResult {
  id: string;
  level: Level;
  area: string;
  section: string;
  text: string;
  verdict: RequirementVerdict;
  tests: TestOutcome[];
  /** A blocked requirement: the requirements that failed first, on which its checks depended. */
  blockedBy?: string[];
}

export type Totals = Record<RequirementVerdict, number>;

/** A failed test of a SHOULD or MAY requirement is a warning: reported, not fatal. */
export function testVerdictFor(level: Level, raw: Exclude<TestVerdict, 'warning'>): TestVerdict {
  return raw === 'failed' && level !== 'MUST' ? 'warning' : raw;
}

/**
 * Worst first, one order for every level: a judged outcome (failed for a MUST, warning for a
 * SHOULD or MAY: the same failed test, testVerdictFor) outranks broken and blocked, so a rule that
 * failed on one operation and was blocked on another reads failed or warning, and blocked only
 * where nothing failed. A blocked test still outranks a passed one: a rule judged on part of its
 * operations only is not shown passed.
 */
export const ORDER: readonly RequirementVerdict[] = ['failed', 'warning', 'broken', 'blocked', 'passed', 'skipped'];

/** The verdict of a requirement from its tests' verdicts (worst first, ORDER; none at all is untested). */
export function requirementVerdict(tests: TestOutcome[]): RequirementVerdict {
  if (tests.length === 0) return 'untested';
  for (const v of ORDER) if (tests.some((t) => t.status === v)) return v;
  return 'untested';
}

/** Not conformant when a MUST failed; incomplete when a requirement is broken, blocked (its root cause did not fail here) or untested. */
export function runVerdict(results: RequirementResult[]): RunVerdict {
  if (results.some((r) => r.verdict === 'failed')) return 'not-conformant';
  if (results.some((r) => r.verdict === 'broken' || r.verdict === 'blocked' || r.verdict === 'untested'))
    return 'incomplete';
  return 'conformant';
}

export function totalsOf(results: RequirementResult[]): Totals {
  const totals: Totals = { passed: 0, failed: 0, warning: 0, skipped: 0, broken: 0, blocked: 0, untested: 0 };
  for (const r of results) totals[r.verdict]++;
  return totals;
}

export function toResult(r: Requirement, tests: TestOutcome[]): RequirementResult {
  const own = tests.map((t) => ({
    ...t,
    status: t.status === 'failed' || t.status === 'warning' ? testVerdictFor(r.level, 'failed') : t.status,
  }));
  const verdict = requirementVerdict(own);
  const roots = [...new Set(own.filter((t) => t.status === 'blocked').map((t) => t.blockedBy!))];
  return {
    id: r.id,
    level: r.level,
    area: r.area,
    section: r.section,
    text: r.text,
    verdict,
    tests: own,
    ...(verdict === 'blocked' ? { blockedBy: roots } : {}),
  };
}

/**
 * Why a requirement was not judged (verdict skipped), from its tests' messages: the profile does
 * not claim it ("not claimed: …"), a setting it needs is missing ("not configured: …"), or the
 * bank's answers left nothing to judge ("not judged: …", "not applicable: …"). Counted apart in
 * the report (`skips`) and on the console.
 */
export type SkipKind = 'notClaimed' | 'notConfigured' | 'notJudged';
export type Skips = Record<SkipKind, number>;

/** The kind of one skipped requirement: not claimed wins over not configured, which wins over not judged. */
export function skipKind(r: Pick<RequirementResult, 'tests'>): SkipKind {
  const messages = r.tests.map((t) => t.message.trim());
  if (messages.some((m) => /^not claimed\b/i.test(m))) return 'notClaimed';
  if (messages.some((m) => /^not configured\b/i.test(m))) return 'notConfigured';
  return 'notJudged';
}

/** How many skipped requirements are not claimed, not configured and not judged (their sum is totals.skipped). */
export function skipsOf(results: Pick<RequirementResult, 'verdict' | 'tests'>[]): Skips {
  const skips: Skips = { notClaimed: 0, notConfigured: 0, notJudged: 0 };
  for (const r of results) if (r.verdict === 'skipped') skips[skipKind(r)]++;
  return skips;
}
