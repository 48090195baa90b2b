import type { ConformanceReport } from './report.js';
import { headerHints } from './console-summary.js';

/*
 * conformance.md's first screen (markdown.ts puts it under the title): what the run covered and
 * whether it can be certified, this run's share of the specification's clauses, the console's
 * hints, and the root causes as a short list. The detail follows.
 */

type Glance = Pick<ConformanceReport, 'requirements' | 'verdict' | 'target'> &
  Partial<Pick<ConformanceReport, 'scope' | 'coverage' | 'errors'>>;

/** At most this many root causes listed at the top; the rest are below. */
const ROOT_CAUSES = 10;

/** The areas whose requirements the run judged (or skipped), in the report's order. */
export const areasRun = (r: Pick<ConformanceReport, 'requirements'>): string[] => [
  ...new Set(r.requirements.map((q) => q.area)),
];

/** Whether the run covered the whole suite, and why not. */
export function partOfRun(r: Glance): string[] {
  const why: string[] = [];
  const s = r.scope;
  if (!s) return ['its scope is not recorded'];
  if (s.narrowed) why.push('narrowed (a grep, a test file or --last-failed)');
  if (s.shard) why.push(`shard ${s.shard.current} of ${s.shard.total}`);
  if (s.projects.length) why.push(`areas chosen with --project (${s.projects.join(', ')})`);
  return why;
}

/**
 * Why the run cannot be certified, as far as the report tells (`certify` checks the profile too:
 * harness/reporter/package.ts, disqualifications).
 */
export function notCertifiable(r: Glance): string[] {
  const why = partOfRun(r).map((w) => `not a whole run: ${w}`);
  if (r.target.draft) why.push("the profile is init's unreviewed draft");
  if (r.errors?.length) why.push('the run had errors');
  if (r.verdict !== 'conformant') why.push(`the verdict is ${r.verdict}`);
  return why;
}

/** The title's words after the verdict: a part of a run says which part. */
export function titleScope(r: Glance): string {
  const part = partOfRun(r);
  return part.length && r.scope ? ` (part of a run: ${areasRun(r).join(', ') || 'no area'})` : '';
}

/** The normative clauses of the areas this run judged, and the catalogue's (all areas). */
function coverageLine(r: Glance): string | undefined {
  const c = r.coverage;
  if (!c) return undefined;
  const areas = areasRun(r).filter((a) => c.byArea[a]);
  const sum = (k: 'normative' | 'judged') => areas.reduce((n, a) => n + c.byArea[a][k], 0);
  const all = Object.keys(c.byArea).length;
  const mine = areas.length === all ? 'every area' : `its ${areas.length} of ${all} areas`;
  return `- Clauses this run judges: ${sum('judged')} of the ${sum('normative')} normative clauses of ${mine} (the whole catalogue: ${c.judged} of ${c.normative}, ${c.judgedPercent} %${c.partly?.length ? `, ${c.partly.length} of them partly judged` : ''})`;
}

/** The root causes: the failed and broken requirements, those that block others first. */
function rootCauseLines(r: Glance): string[] {
  const blocks = new Map<string, number>();
  for (const q of r.requirements) for (const id of q.blockedBy ?? []) blocks.set(id, (blocks.get(id) ?? 0) + 1);
  const roots = r.requirements
    .filter((q) => q.verdict === 'failed' || q.verdict === 'broken')
    .sort((a, b) => (blocks.get(b.id) ?? 0) - (blocks.get(a.id) ?? 0));
  if (!roots.length) return [];
  const out = ['## Root causes', ''];
  for (const q of roots.slice(0, ROOT_CAUSES)) {
    const n = blocks.get(q.id) ?? 0;
    out.push(
      `- ${q.verdict === 'failed' ? '❌' : '💥'} \`${q.id}\` (${q.level}, ${q.verdict}${n ? `, blocks ${n}` : ''}): ${q.text}`,
    );
  }
  if (roots.length > ROOT_CAUSES) out.push(`- … and ${roots.length - ROOT_CAUSES} more, below`);
  out.push('');
  return out;
}

/** The lines under the title: scope, certifiable, coverage, hints; then the root causes. */
export function glanceLines(r: Glance): { head: string[]; roots: string[] } {
  const part = partOfRun(r);
  const areas = areasRun(r);
  const all = r.coverage ? Object.keys(r.coverage.byArea).length : undefined;
  const head = [
    `- Scope: ${part.length ? `part of a run (${part.join('; ')})` : 'the whole suite'}; areas run: ${areas.join(', ') || 'none'}${all ? ` (${areas.length} of ${all})` : ''}`,
  ];
  const no = notCertifiable(r);
  head.push(`- Certifiable: ${no.length ? `no (${no.join('; ')})` : 'yes (`obg-conformance certify`)'}`);
  const cov = coverageLine(r);
  if (cov) head.push(cov);
  for (const h of headerHints(r)) head.push(`- ${h.replace(/^hint: /, 'Hint: ')}`);
  return { head, roots: rootCauseLines(r) };
}
