import { QUOTE_FILES, type QuoteFrom } from '../catalogue/catalogue.js';
import type { ConformanceReport } from './report.js';
import { renderPast } from './history.js';
import { coverageMarkdown } from './specification.js';
import { skipKind, skipsOf, type RequirementResult, type SkipKind } from './verdicts.js';
import { glanceLines, titleScope } from './markdown-glance.js';

/** What the human report reads of the run's report (conformance.json). */
type ReportLike = Omit<ConformanceReport, 'run'>;

const ICON: Record<string, string> = {
  passed: '✅',
  failed: '❌',
  warning: '⚠️',
  skipped: '⏭️',
  broken: '💥',
  blocked: '⛔',
  untested: '❔',
};
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/**
 * The words a requirement rests on, as a Markdown blockquote under the line naming their file.
 * The quote is Markdown from a Markdown file, so it is shown as it stands (each of its lines, a
 * table row for instance, a paragraph of its own).
 */
export function quoteBlock(quote: string | undefined, from: QuoteFrom | undefined): string[] {
  if (!quote?.trim()) return ['No quote of the specification is recorded for this requirement.', ''];
  const lines = quote
    .trim()
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  return [
    `It rests on \`${from ? QUOTE_FILES[from] : 'an unnamed file'}\`:`,
    '',
    ...lines.flatMap((l, i) => (i === 0 ? [`> ${l}`] : ['>', `> ${l}`])),
    '',
  ];
}

/** What a run under init's unreviewed draft says, in the console and the report. */
export const DRAFT_LINE = (profile: string) =>
  `**This profile is init's unreviewed draft** (\`${profile}\` carries "draft": true): the verdict judges claims nobody has checked yet. Review them (the notes init wrote beside it), then remove "draft".`;

/**
 * The report's head, read in one screen: its verdict (and which part of a run), the totals, the
 * scope, whether it can be certified, this run's clauses, the console's hints; then the target,
 * the suite, the run and its requests; then the root causes as a short list (markdown-glance.ts).
 */
function headLines(r: ReportLike): string[] {
  const out: string[] = [];
  const glance = glanceLines(r);
  out.push(`# Conformance report: ${r.verdict.toUpperCase()}${titleScope(r)}`, '');
  for (const e of r.errors ?? []) out.push(`- **${cell(e.split('\n')[0])}**`);
  const s = r.skips ?? skipsOf(r.requirements);
  out.push(
    `- Requirements: ${Object.entries(r.totals)
      .map(([k, v]) => `${v} ${k}`)
      .join(
        ', ',
      )}${r.totals.skipped ? ` (skipped: ${s.notClaimed} not claimed, ${s.notConfigured} not configured, ${s.notJudged} not judged)` : ''}`,
  );
  out.push(...glance.head);
  out.push(
    `- Target: ${r.target.baseUrl}${r.target.embedded ? ' (embedded reference sandbox)' : ''}, profile \`${r.target.profile}\``,
  );
  if (r.target.draft) out.push(`- ${DRAFT_LINE(r.target.profile)}`);
  out.push(
    `- Suite: ${r.suite.name} ${r.suite.version} (${r.suite.commit.slice(0, 12)}), specification SHA-256 \`${r.suite.specSha256.slice(0, 16)}…\``,
  );
  out.push(`- Run: ${r.startedAt} to ${r.finishedAt}`);
  if (r.generated)
    out.push(
      r.generated.depth === 'off'
        ? '- Generated phase: off (its properties not judged)'
        : `- Generated phase: depth ${r.generated.depth} (${r.generated.cases} cases per property), seed ${r.generated.seed}: \`obg-conformance run --seed ${r.generated.seed}\` replays its cases`,
    );
  if (r.limits) {
    const l = r.limits;
    const bound = [
      l.requestsPerSecond !== null ? `${l.requestsPerSecond} per second` : '',
      l.concurrency !== null ? `${l.concurrency} in flight` : '',
    ]
      .filter(Boolean)
      .join(', ');
    out.push(
      `- Requests to the target: ${l.requests}, peak ${l.peakPerSecond} per second and ${l.peakConcurrency} in flight (profile limits: ${bound || 'none'}); ${l.retried} rate-limited answers waited out, ${l.rateLimited} given up`,
    );
  }
  out.push('', ...glance.roots);
  return out;
}

/** A table of the verdicts' counts, a row per area. */
function overviewLines(r: ReportLike): string[] {
  const areas = [...new Set(r.requirements.map((q) => q.area))];
  // A column per verdict: the usual ones in this order, then any other verdict the totals count.
  const usual = ['passed', 'failed', 'warning', 'broken', 'blocked', 'skipped', 'untested'];
  const columns = [...usual, ...Object.keys(r.totals).filter((v) => !usual.includes(v))];
  const out = [
    '## Overview by area',
    '',
    `| Area | Requirements | ${columns.map((v) => `${ICON[v] ? `${ICON[v]} ` : ''}${v}`).join(' | ')} |`,
    `|---|---|${columns.map(() => '---|').join('')}`,
  ];
  for (const area of areas) {
    const rs = r.requirements.filter((q) => q.area === area);
    const n = (v: string) => rs.filter((q) => q.verdict === v).length;
    out.push(`| ${area} | ${rs.length} | ${columns.map(n).join(' | ')} |`);
  }
  out.push('');
  return out;
}

/** Every requirement failed, broken or warned, with its quote and the messages of its tests. */
function notPassedLines(r: ReportLike): string[] {
  const out: string[] = [];
  // Root causes first: the failures other checks were blocked by, then the other failures, the
  // broken and the warnings; the blocked ones last, each naming its root cause.
  const roots = new Set(r.requirements.flatMap((q) => q.blockedBy ?? []));
  const rank = (q: RequirementResult) =>
    q.verdict === 'failed' ? (roots.has(q.id) ? 0 : 1) : q.verdict === 'broken' ? 2 : q.verdict === 'warning' ? 3 : 4;
  const notPassed = r.requirements
    .filter((q) => q.verdict !== 'passed' && q.verdict !== 'skipped' && q.verdict !== 'blocked')
    .sort((a, b) => rank(a) - rank(b));
  out.push('## Requirements not passed', '');
  if (notPassed.length === 0) out.push('None.', '');
  for (const q of notPassed) {
    const blocks = r.requirements.filter((b) => b.blockedBy?.includes(q.id)).length;
    out.push(
      `### ${ICON[q.verdict] ?? '•'} ${q.verdict}: \`${q.id}\` (${q.level})${blocks ? `: root cause of ${blocks} blocked` : ''}`,
      '',
      `${q.text}`,
      '',
      `Section: ${q.section}`,
      '',
      ...quoteBlock(q.quote, q.quoteFrom),
      ...(q.pins ? [`What its test pins rests on: ${q.pins}`, ''] : []),
    );
    if (q.tests.length === 0) out.push('No test ran for this requirement.', '');
    for (const t of q.tests.filter((t) => t.status !== 'passed')) {
      out.push(
        `- **${cell(t.title)}** (${t.file}): ${t.status}`,
        '',
        '```text',
        t.message.trim() || '(no message)',
        '```',
        '',
      );
    }
  }
  return out;
}

/**
 * The robustness properties of the generated phase (any input outside the specification's forms:
 * requirements `<area>.robustness.*`): each one's verdict and, where it did not pass, each smallest
 * input, the exchange that failed on it and the seed that replays it (lines of the failure report).
 */
function robustnessLines(r: ReportLike): string[] {
  const qs = r.requirements.filter((q) => q.id.includes('.robustness.'));
  if (!qs.length) return [];
  const out = [
    '## Robustness',
    '',
    '| Requirement | Level | Verdict | Smallest input | Exchange | Replay |',
    '|---|---|---|---|---|---|',
  ];
  for (const q of qs) {
    const failures = q.tests.filter((t) => /Smallest counterexample/.test(t.message));
    const line = (m: string, re: RegExp) =>
      cell(
        m
          .split('\n')
          .find((l) => re.test(l))
          ?.trim()
          .slice(0, 300) ?? '',
      );
    if (!failures.length) out.push(`| \`${q.id}\` | ${q.level} | ${ICON[q.verdict] ?? ''} ${q.verdict} | | | |`);
    for (const t of failures) {
      const lines = t.message.split('\n');
      const input = cell(
        (lines[lines.findIndex((l) => /Smallest counterexample/.test(l)) + 1] ?? '').trim().slice(0, 300),
      );
      out.push(
        `| \`${q.id}\` | ${q.level} | ${ICON[q.verdict] ?? ''} ${q.verdict} | \`${input}\` | ${line(t.message, /^Got: /)} | ${line(t.message, /^Seed /)} |`,
      );
    }
  }
  out.push('');
  return out;
}

/** The blocked requirements, each with its root cause and the step that failed. */
function blockedLines(r: ReportLike): string[] {
  const blocked = r.requirements.filter((q) => q.verdict === 'blocked');
  if (!blocked.length) return [];
  const out = [
    '## Blocked by an earlier failure',
    '',
    'These checks could not reach their rule because a step they needed failed first; the root cause is reported above.',
    '',
    '| Requirement | Level | Blocked by | Step |',
    '|---|---|---|---|',
  ];
  for (const q of blocked) {
    const step = q.tests.find((t) => t.status === 'blocked')?.message.split('\n')[0] ?? '';
    out.push(
      `| \`${q.id}\` | ${q.level} | ${(q.blockedBy ?? []).map((id) => `\`${id}\``).join(', ')} | ${cell(step.replace(/^(Blocked: )?\[blocked by [^\]]+\]\s*/, '').slice(0, 200))} |`,
    );
  }
  out.push('');
  return out;
}

const SKIP_WORDS: Record<SkipKind, string> = {
  notClaimed: 'not claimed',
  notConfigured: 'not configured',
  notJudged: 'not judged',
};

/** The requirements not run here: not claimed by the profile, not configured, or not judged, each with its reason. */
function skippedLines(r: ReportLike): string[] {
  const skipped = r.requirements.filter((q) => q.verdict === 'skipped');
  if (!skipped.length) return [];
  const out = [
    '## Not run here: not claimed, not configured, not judged',
    '',
    '| Requirement | Level | Why | Reason |',
    '|---|---|---|---|',
  ];
  const order: SkipKind[] = ['notClaimed', 'notConfigured', 'notJudged'];
  for (const q of [...skipped].sort((a, b) => order.indexOf(skipKind(a)) - order.indexOf(skipKind(b))))
    out.push(
      `| \`${q.id}\` | ${q.level} | ${SKIP_WORDS[skipKind(q)]} | ${cell(q.tests.find((t) => t.status === 'skipped')?.message ?? q.tests[0]?.message ?? 'skipped')} |`,
    );
  out.push('');
  return out;
}

/** conformance.md: an overview per area, then every requirement that did not pass. */
export function renderMarkdown(r: ReportLike): string {
  return [
    ...headLines(r),
    ...overviewLines(r),
    ...notPassedLines(r),
    ...robustnessLines(r),
    ...blockedLines(r),
    ...skippedLines(r),
    // The baseline's judgement and the changes since the previous run (harness/reporter/history.ts).
    ...renderPast(r),
    // How much of the specification the catalogue judges (harness/reporter/specification.ts).
    ...(r.coverage ? coverageMarkdown(r.coverage) : []),
  ].join('\n');
}
