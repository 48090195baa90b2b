// Baseline and ratchet: known failures and warnings, each with a reason and an expiry date.
//
// With a baseline (BASELINE=path) a run exits 0 when every failure is in it, and 1 on any other
// failure (a regression) or on an expired entry. A baselined requirement that now passes is
// reported as fixed, to be removed from the baseline. `npm run conformance -- --write-baseline`
// writes the current failures as a new baseline for a person to review.
import { isoDay } from '../../spec/iso8601.js';
import { existsSync, readFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import type { RequirementResult, RequirementVerdict, RunVerdict } from './verdicts.js';

export interface BaselineEntry {
  id: string;
  /** The verdict known when the entry was written (failed, warning, broken, blocked, untested): for the reader. */
  verdict?: string;
  reason: string;
  /** YYYY-MM-DD: past this day the entry no longer excuses its failure and the run fails. */
  expires: string;
}

export interface BaselineOutcome {
  file: string;
  /** Failures and warnings the baseline lists (not expired). */
  known: string[];
  /** Failures the baseline does not list: each fails the run. */
  regressions: { id: string; verdict: RequirementVerdict }[];
  /** Warnings the baseline does not list: reported, never fatal. */
  newWarnings: string[];
  /** Entries past their expiry date: each fails the run. */
  expired: { id: string; expires: string }[];
  /** Entries whose requirement now passes: "fixed: remove it from the baseline". */
  fixed: string[];
  /** Problems of the baseline file itself (unreadable, an entry without reason or expiry): each fails the run. */
  problems: string[];
  exitCode: 0 | 1;
}

interface Judged {
  verdict: RunVerdict;
  errors?: string[];
  requirements: Pick<RequirementResult, 'id' | 'verdict'>[];
}

/** Verdicts that fail a run; a warning is reported but never fatal. */
const FATAL = new Set<RequirementVerdict>(['failed', 'broken', 'blocked', 'untested']);
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Reads a baseline file (YAML or JSON: `requirements: [{id, reason, expires}]`); problems name the entry. */
export function loadBaseline(file: string): { entries: BaselineEntry[]; problems: string[] } {
  if (!existsSync(file)) return { entries: [], problems: [`BASELINE: no such file ${file}`] };
  let data: unknown;
  try {
    data = parse(readFileSync(file, 'utf8'));
  } catch (err) {
    return { entries: [], problems: [`BASELINE: ${file} is not valid YAML or JSON: ${(err as Error).message}`] };
  }
  const list = (data as { requirements?: unknown } | null)?.requirements;
  if (!Array.isArray(list)) return { entries: [], problems: [`BASELINE: ${file} has no "requirements" list`] };
  const entries: BaselineEntry[] = [];
  const problems: string[] = [];
  list.forEach((raw: Record<string, unknown>, i) => {
    const expires = raw?.expires instanceof Date ? isoDay(raw.expires) : String(raw?.expires ?? '');
    const where = `BASELINE: entry ${i + 1}${typeof raw?.id === 'string' ? ` (${raw.id})` : ''}`;
    if (typeof raw?.id !== 'string' || !raw.id) problems.push(`${where}: no requirement id`);
    else if (typeof raw.reason !== 'string' || !raw.reason.trim()) problems.push(`${where}: no reason`);
    else if (!DATE.test(expires)) problems.push(`${where}: expires must be a date YYYY-MM-DD, got "${expires}"`);
    else entries.push({ id: raw.id, verdict: raw.verdict as string | undefined, reason: raw.reason, expires });
  });
  return { entries, problems };
}

/** Judges a run against a baseline. Requirements the run did not judge (a narrowed run) are left alone. */
export function applyBaseline(
  report: Judged,
  file: string,
  baseline: { entries: BaselineEntry[]; problems: string[] },
  today: Date = new Date(),
): BaselineOutcome {
  const day = isoDay(today);
  const byId = new Map(baseline.entries.map((e) => [e.id, e]));
  const out: BaselineOutcome = {
    file,
    known: [],
    regressions: [],
    newWarnings: [],
    expired: [],
    fixed: [],
    problems: [...baseline.problems],
    exitCode: 0,
  };
  const verdicts = new Map(report.requirements.map((q) => [q.id, q.verdict]));
  for (const e of baseline.entries) {
    if (e.expires < day) out.expired.push({ id: e.id, expires: e.expires });
    if (verdicts.get(e.id) === 'passed') out.fixed.push(e.id);
  }
  const expired = new Set(out.expired.map((e) => e.id));
  for (const q of report.requirements) {
    const listed = byId.has(q.id) && !expired.has(q.id);
    if (FATAL.has(q.verdict)) {
      if (listed) out.known.push(q.id);
      else out.regressions.push({ id: q.id, verdict: q.verdict });
    }
    if (q.verdict === 'warning') (listed ? out.known : out.newWarnings).push(q.id);
  }
  for (const e of report.errors ?? []) out.problems.push(`the run had an error: ${e.split('\n')[0]}`);
  out.exitCode = out.regressions.length || out.expired.length || out.problems.length ? 1 : 0;
  return out;
}

/**
 * A new baseline (YAML) listing the run's failures and warnings, for a person to review: an entry
 * already in `previous` keeps its reason and expiry; a new one gets a reason to be written and
 * expires after `days`.
 */
export function baselineText(
  report: { requirements: Pick<RequirementResult, 'id' | 'verdict' | 'tests'>[] },
  previous: BaselineEntry[] = [],
  today: Date = new Date(),
  days = 90,
): string {
  const before = new Map(previous.map((e) => [e.id, e]));
  const expires = isoDay(new Date(today.getTime() + days * 86_400_000));
  const requirements = report.requirements
    .filter((q) => FATAL.has(q.verdict) || q.verdict === 'warning')
    .map((q) => {
      const first = q.tests
        ?.find((t) => t.status !== 'passed')
        ?.message.split('\n')[0]
        ?.slice(0, 160);
      return {
        id: q.id,
        verdict: q.verdict,
        reason: before.get(q.id)?.reason ?? `TO REVIEW: ${first || q.verdict}`,
        expires: before.get(q.id)?.expires ?? expires,
      };
    });
  return [
    '# Known failures and warnings of the target, by requirement id: a run with this baseline',
    '# (BASELINE=<this file>) exits 0 when every failure is listed here, 1 on any other failure and',
    '# on an entry past its expiry date. Written by `npm run conformance -- --write-baseline`:',
    '# review every reason ("TO REVIEW") and expiry before committing it.',
    stringify({ requirements }, { lineWidth: 0 }),
  ].join('\n');
}

/** The baseline's section of conformance.md. */
export function renderBaseline(b: BaselineOutcome | undefined): string[] {
  if (!b) return [];
  const out = [
    '## Baseline',
    '',
    `Baseline \`${b.file}\`: ${b.exitCode === 0 ? 'every failure is known, the run passes' : '**the run fails**'}.`,
    '',
  ];
  const list = (title: string, items: string[]) => {
    if (items.length) out.push(`${title}:`, '', ...items.map((i) => `- ${i}`), '');
  };
  list('Problems of the baseline', b.problems);
  list(
    'Regressions (failures the baseline does not list)',
    b.regressions.map((r) => `\`${r.id}\` ${r.verdict}`),
  );
  list(
    'Expired entries',
    b.expired.map((e) => `\`${e.id}\` expired ${e.expires}`),
  );
  list(
    'Fixed',
    b.fixed.map((id) => `\`${id}\`: fixed: remove it from the baseline`),
  );
  list(
    'New warnings (not fatal)',
    b.newWarnings.map((id) => `\`${id}\``),
  );
  list(
    'Known (listed in the baseline)',
    b.known.map((id) => `\`${id}\``),
  );
  return out;
}
