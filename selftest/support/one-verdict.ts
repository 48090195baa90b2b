import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConformanceReport } from '../../harness/reporter/report.js';
import { ALLURE_STATUS, foldedTests } from '../../harness/reporter/one-verdict.js';

/** Counts per Allure status (passed, failed, broken, skipped) and, apart, by the `verdict` label. */
export interface AllureCounts {
  byStatus: Record<string, number>;
  byVerdict: Record<string, number>;
}

interface ResultFile {
  status: string;
  labels?: { name: string; value: string }[];
}

/** The Allure results of a run folder (allure-results/*-result.json). */
export function allureResults(reportsDir: string): ResultFile[] {
  const dir = join(reportsDir, 'allure-results');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.endsWith('-result.json'))
    .map((n) => JSON.parse(readFileSync(join(dir, n), 'utf8')) as ResultFile);
}

const tally = (values: string[]) => {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
};

/** What Allure's results count. */
export function allureCounts(reportsDir: string): AllureCounts {
  const results = allureResults(reportsDir);
  return {
    byStatus: tally(results.map((r) => r.status)),
    byVerdict: tally(results.map((r) => r.labels?.find((l) => l.name === 'verdict')?.value ?? '(none)')),
  };
}

/** What the report counts, test by test (a test naming several requirements counted once, at its worst). */
export function reportTestCounts(report: Pick<ConformanceReport, 'requirements'>): AllureCounts {
  const tests = [...foldedTests(report.requirements).values()];
  return {
    byStatus: tally(tests.map((t) => ALLURE_STATUS[t.status])),
    byVerdict: tally(tests.map((t) => t.status)),
  };
}

/** junit.xml's counts: test cases, failures (and errors), skipped. */
export function junitCounts(reportsDir: string): { tests: number; failures: number; skipped: number } {
  const xml = readFileSync(join(reportsDir, 'junit.xml'), 'utf8');
  const cases = xml.match(/<testcase\b[\s\S]*?<\/testcase>/g) ?? [];
  const head = /<testsuites\b[^>]*>/.exec(xml)?.[0] ?? '';
  const attr = (name: string) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(head)?.[1] ?? NaN);
  const counted = {
    tests: cases.length,
    failures: cases.filter((c) => /<(failure|error)\b/.test(c)).length,
    skipped: cases.filter((c) => /<skipped\b/.test(c)).length,
  };
  // The head's totals are the cases' own (counted again after the fold).
  if (attr('tests') !== counted.tests || attr('failures') + attr('errors') !== counted.failures)
    throw new Error(`junit.xml: its totals (${head}) are not its test cases' (${JSON.stringify(counted)})`);
  if (attr('skipped') !== counted.skipped)
    throw new Error(`junit.xml: skipped="${attr('skipped')}" but ${counted.skipped} skipped test cases`);
  return counted;
}

/**
 * The blocked requirements whose Allure results show only green tests (none should): every
 * result whose `story` label is the requirement.
 */
export function greenBlocked(reportsDir: string, report: Pick<ConformanceReport, 'requirements'>): string[] {
  const byStory = new Map<string, string[]>();
  for (const r of allureResults(reportsDir))
    for (const l of r.labels ?? [])
      if (l.name === 'story') byStory.set(l.value, [...(byStory.get(l.value) ?? []), r.status]);
  return report.requirements
    .filter((r) => r.verdict === 'blocked')
    .filter((r) => (byStory.get(r.id) ?? []).every((s) => s === 'passed'))
    .map((r) => r.id);
}
