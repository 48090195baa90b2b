import type { RequirementResult, RunVerdict, Totals } from './verdicts.js';

interface ReportLike {
  suite: { name: string; version: string; commit: string; specSha256: string };
  target: { baseUrl: string; profile: string; embedded: boolean };
  startedAt: string;
  finishedAt: string;
  verdict: RunVerdict;
  totals: Totals;
  requirements: RequirementResult[];
}

const ICON: Record<string, string> = {
  passed: '✅',
  failed: '❌',
  warning: '⚠️',
  skipped: '⏭️',
  broken: '💥',
  untested: '❔',
};
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** conformance.md: an overview per area, then every requirement that did not pass. */
export function renderMarkdown(r: ReportLike): string {
  const out: string[] = [];
  out.push(`# Conformance report: ${r.verdict.toUpperCase()}`, '');
  out.push(
    `- Target: ${r.target.baseUrl}${r.target.embedded ? ' (embedded reference sandbox)' : ''}, profile \`${r.target.profile}\``,
  );
  out.push(
    `- Suite: ${r.suite.name} ${r.suite.version} (${r.suite.commit.slice(0, 12)}), specification SHA-256 \`${r.suite.specSha256.slice(0, 16)}…\``,
  );
  out.push(`- Run: ${r.startedAt} to ${r.finishedAt}`);
  out.push(
    `- Requirements: ${Object.entries(r.totals)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ')}`,
    '',
  );
  const areas = [...new Set(r.requirements.map((q) => q.area))];
  out.push(
    '## Overview by area',
    '',
    '| Area | Requirements | ✅ passed | ❌ failed | ⚠️ warning | 💥 broken | ⏭️ skipped | ❔ untested |',
    '|---|---|---|---|---|---|---|---|',
  );
  for (const area of areas) {
    const rs = r.requirements.filter((q) => q.area === area);
    const n = (v: string) => rs.filter((q) => q.verdict === v).length;
    out.push(
      `| ${area} | ${rs.length} | ${n('passed')} | ${n('failed')} | ${n('warning')} | ${n('broken')} | ${n('skipped')} | ${n('untested')} |`,
    );
  }
  out.push('');
  const notPassed = r.requirements.filter((q) => q.verdict !== 'passed' && q.verdict !== 'skipped');
  out.push('## Requirements not passed', '');
  if (notPassed.length === 0) out.push('None.', '');
  for (const q of notPassed) {
    out.push(
      `### ${ICON[q.verdict]} ${q.verdict}: \`${q.id}\` (${q.level})`,
      '',
      `${q.text}`,
      '',
      `Section: ${q.section}`,
      '',
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
  const skipped = r.requirements.filter((q) => q.verdict === 'skipped');
  if (skipped.length) {
    out.push('## Not claimed by the profile', '', '| Requirement | Level | Reason |', '|---|---|---|');
    for (const q of skipped) out.push(`| \`${q.id}\` | ${q.level} | ${cell(q.tests[0]?.message ?? 'skipped')} |`);
    out.push('');
  }
  return out.join('\n');
}
