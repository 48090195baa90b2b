import type { Level, Requirement } from '../catalogue.js';

export type TestVerdict = 'passed' | 'failed' | 'warning' | 'skipped' | 'broken';
export type RequirementVerdict = TestVerdict | 'untested';
export type RunVerdict = 'conformant' | 'not-conformant' | 'incomplete';

export interface TestOutcome {
  title: string;
  file: string;
  status: TestVerdict;
  message: string;
}

export interface RequirementResult {
  id: string;
  level: Level;
  area: string;
  section: string;
  text: string;
  verdict: RequirementVerdict;
  tests: TestOutcome[];
}

export type Totals = Record<RequirementVerdict, number>;

/** A failed test of a SHOULD or MAY requirement is a warning: reported, not fatal. */
export function testVerdictFor(level: Level, raw: 'passed' | 'failed' | 'skipped' | 'broken'): TestVerdict {
  return raw === 'failed' && level !== 'MUST' ? 'warning' : raw;
}

const ORDER: RequirementVerdict[] = ['failed', 'broken', 'warning', 'passed', 'skipped'];

/** The verdict of a requirement from its tests' verdicts (worst first; none at all is untested). */
export function requirementVerdict(tests: TestOutcome[]): RequirementVerdict {
  if (tests.length === 0) return 'untested';
  for (const v of ORDER) if (tests.some((t) => t.status === v)) return v;
  return 'untested';
}

export function runVerdict(results: RequirementResult[]): RunVerdict {
  if (results.some((r) => r.verdict === 'failed')) return 'not-conformant';
  if (results.some((r) => r.verdict === 'broken' || r.verdict === 'untested')) return 'incomplete';
  return 'conformant';
}

export function totalsOf(results: RequirementResult[]): Totals {
  const totals: Totals = { passed: 0, failed: 0, warning: 0, skipped: 0, broken: 0, untested: 0 };
  for (const r of results) totals[r.verdict]++;
  return totals;
}

export function toResult(r: Requirement, tests: TestOutcome[]): RequirementResult {
  const own = tests.map((t) => ({
    ...t,
    status: t.status === 'failed' || t.status === 'warning' ? testVerdictFor(r.level, 'failed') : t.status,
  }));
  return {
    id: r.id,
    level: r.level,
    area: r.area,
    section: r.section,
    text: r.text,
    verdict: requirementVerdict(own),
    tests: own,
  };
}
