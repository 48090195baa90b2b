// What the console says of a run: the progress line while it goes and, at its end, the verdict
// read from the report (conformance.json), so that the console's counts are the report's. Pure
// text functions: the console reporter (console.ts) and `merge` print them.
import { stripVTControlCharacters } from 'node:util';
import type { ConformanceReport } from './report.js';
import { skipsOf, type TestVerdict } from './verdicts.js';

/** The report's parts the console reads. */
export type ReportForConsole = Pick<ConformanceReport, 'verdict' | 'totals' | 'requirements' | 'errors'> &
  Partial<Pick<ConformanceReport, 'skips' | 'changes'>>;

/** At most this many lines per list at the end; the rest is in conformance.md. */
export const LIST_LIMIT = { failed: 60, broken: 20, roots: 20 };

/** The counts line, the same words whatever prints it; a self-test reads the numbers back (countsOf). */
export function countsLine(r: ReportForConsole): string {
  const t = r.totals;
  const s = r.skips ?? skipsOf(r.requirements);
  return (
    `requirements: ${t.passed} passed, ${t.failed} failed, ${t.warning} warning, ${t.broken} broken, ` +
    `${t.blocked} blocked, ${t.untested} untested; not run here: ${s.notClaimed} not claimed, ` +
    `${s.notConfigured} not configured, ${s.notJudged} not judged`
  );
}

const COUNTS =
  /requirements: (\d+) passed, (\d+) failed, (\d+) warning, (\d+) broken, (\d+) blocked, (\d+) untested; not run here: (\d+) not claimed, (\d+) not configured, (\d+) not judged/;

/** The numbers of a counts line in `text` (the last one), or undefined. */
export function countsOf(text: string) {
  const all = [...text.matchAll(new RegExp(COUNTS, 'g'))];
  const m = all.at(-1);
  if (!m) return undefined;
  const [passed, failed, warning, broken, blocked, untested, notClaimed, notConfigured, notJudged] = m
    .slice(1)
    .map(Number);
  return {
    totals: { passed, failed, warning, broken, blocked, untested, skipped: notClaimed + notConfigured + notJudged },
    skips: { notClaimed, notConfigured, notJudged },
  };
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * The first error of a test's message: a test with soft assertions carries one error after the
 * other ("Error: …" at the start of a line), and a line takes its title and its expected and
 * received values from the same one.
 */
function firstError(message: string): string {
  const lines = message.split('\n');
  const next = lines.findIndex((l, i) => i > 0 && /^(Error|Blocked|TargetBroken): /.test(l));
  return (next > 0 ? lines.slice(0, next) : lines).join('\n');
}

/**
 * A test's message as one line: what was expected and what came back. The harness's messages
 * read "Expected …; got …" under an optional line saying what was done, then "Requirement …"
 * (the requirement's own text, which the line names already); Playwright's own read "Expected: …"
 * and "Received: …".
 */
export function oneLine(message: string, max = 240): string {
  const lines = firstError(stripVTControlCharacters(message))
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^(Requirement \S+ \(|Call log:|at |- |attachment #)/.test(l))
    .map((l) => l.replace(/^(Error|Blocked):\s*/, '').replace(/^\[blocked by [^\]]+\]\s*/, ''));
  const want = lines.find((l) => /^Expected: /.test(l));
  const got = lines.find((l) => /^Received: /.test(l));
  const head = lines[0] ?? '';
  // A generated property's failure: its name, then what came back for the smallest case.
  const generated = lines.find((l) => /^Got: /.test(l));
  let line: string;
  if (generated) line = `${head}: ${generated.slice(5)}`;
  else if (want && got)
    line = `${head.startsWith('expect(') ? '' : `${head}: `}expected ${want.slice(10)}, got ${got.slice(10)}`;
  else {
    const expected = lines.find((l) => /^Expected /.test(l));
    line = expected && expected !== head ? `${head}: ${expected}` : head || '(no message)';
  }
  // The answer's media type says little here; its body says what the bank objected to.
  return clip(line.replace(/ \([\w.+-]+\/[\w.+-]+(?:; ?charset=[\w-]+)?\)/g, '').replace(/\s+/g, ' '), max);
}

/** The run's last lines: the verdict and counts, each failed MUST, the broken, then each root cause with what it blocks. */
export function verdictLines(r: ReportForConsole, where = 'conformance.md'): string[] {
  const out = [`verdict: ${r.verdict.toUpperCase()}`, countsLine(r)];
  const failed = r.requirements.filter((q) => q.verdict === 'failed');
  const broken = r.requirements.filter((q) => q.verdict === 'broken');
  const list = (title: string, items: string[], limit: number) => {
    if (!items.length) return;
    out.push(title, ...items.slice(0, limit).map((i) => `  ${i}`));
    if (items.length > limit) out.push(`  … and ${items.length - limit} more in ${where}`);
  };
  const firstOf = (q: (typeof r.requirements)[number], status: TestVerdict[]) =>
    oneLine(q.tests.find((t) => status.includes(t.status))?.message ?? '');
  list(
    `failed MUSTs (${failed.length}): the requirement, what was expected and what came back`,
    failed.map((q) => `${q.id}: ${firstOf(q, ['failed'])}`),
    LIST_LIMIT.failed,
  );
  // Broken ones that share their message (a target down for every check) are one line.
  const byMessage = new Map<string, string[]>();
  for (const q of broken) {
    const m = firstOf(q, ['broken']);
    byMessage.set(m, [...(byMessage.get(m) ?? []), q.id]);
  }
  list(
    `broken (${broken.length}): the target answered nothing usable, or the suite failed`,
    [...byMessage.entries()].map(([m, ids]) =>
      ids.length === 1 ? `${ids[0]}: ${m}` : `${ids.length} requirements (${ids.slice(0, 3).join(', ')}, …): ${m}`,
    ),
    LIST_LIMIT.broken,
  );
  // Each root cause and how many blocked requirements wait on it, most first.
  const blocks = new Map<string, number>();
  for (const q of r.requirements)
    if (q.verdict === 'blocked') for (const id of q.blockedBy ?? []) blocks.set(id, (blocks.get(id) ?? 0) + 1);
  const byId = new Map(r.requirements.map((q) => [q.id, q]));
  list(
    `root causes (${blocks.size}) of the ${r.totals.blocked} blocked: each with the number of checks it blocks`,
    [...blocks.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([id, n]) => `${id} (${byId.get(id)?.verdict ?? 'not in this run'}) blocks ${n}`),
    LIST_LIMIT.roots,
  );
  const untested = r.requirements.filter((q) => q.verdict === 'untested').map((q) => q.id);
  if (untested.length)
    out.push(
      `untested (${untested.length}): claimed, and no test of theirs ran: ${untested.slice(0, 10).join(', ')}${untested.length > 10 ? `, … (${where})` : ''}`,
    );
  out.push(...sinceLines(r), ...headerHints(r));
  if (r.totals.warning) out.push(`warnings: ${r.totals.warning} SHOULDs not met, listed in ${where}`);
  return out;
}

/** A bank's answer that names a header it requires: "Date header is required", "missing header X-Foo". */
const NAMED_HEADER =
  /\b([A-Za-z][\w-]*) header (?:is )?(?:required|missing|mandatory)|\bheader:? "?([A-Za-z][\w-]*)"? (?:is )?(?:required|missing|mandatory)|(?:missing|required) (?:request )?header:? "?([A-Za-z][\w-]*)/gi;

/**
 * The headers the bank's refusals name as required, with how many requirements' tests met them: a
 * bank that wants a header of its own (Date, say) on every call is told to the profile's
 * `requiredHeaders` (docs/profiles.md), not found by reading every message.
 */
export function headerHints(r: Pick<ReportForConsole, 'requirements'>): string[] {
  const seen = new Map<string, { name: string; ids: Set<string> }>();
  for (const q of r.requirements)
    for (const t of q.tests)
      if (t.status !== 'passed' && t.message)
        // Only the bank's own words: the body of an answer the message quotes.
        for (const m of t.message
          .split(/ body: /)
          .slice(1)
          .join('\n')
          .matchAll(NAMED_HEADER)) {
          const name = m[1] ?? m[2] ?? m[3];
          const key = name.toLowerCase();
          // A requirement about that very header leaves it out on purpose: its answer is no hint.
          if (q.text.toLowerCase().includes(key)) continue;
          if (!seen.has(key)) seen.set(key, { name, ids: new Set() });
          seen.get(key)!.ids.add(q.id);
        }
  return [...seen.values()]
    .sort((a, b) => b.ids.size - a.ids.size)
    .map(
      ({ name, ids }) =>
        `hint: the bank's answers name the header ${name} as required (${ids.size} requirement${ids.size === 1 ? '' : 's'}): ` +
        `if the bank wants it on every call, declare it in the profile's requiredHeaders (docs/profiles.md)`,
    );
}

/** What changed since the previous run of the same target and profile content (harness/reporter/history.ts). */
function sinceLines(r: ReportForConsole): string[] {
  const c = r.changes;
  if (!c?.previous) return [];
  if (!c.newlyFailing.length && !c.noLongerJudged.length && !c.newlyPassing.length && !c.changedMessages.length)
    return [`since the run of ${c.previous.finishedAt} (${c.previous.verdict}): no verdict and no message changed`];
  const few = (ids: string[]) => (ids.length ? `: ${ids.slice(0, 8).join(', ')}${ids.length > 8 ? ', …' : ''}` : '');
  return [
    `since the run of ${c.previous.finishedAt} (${c.previous.verdict}): ${c.newlyFailing.length} newly failing` +
      `${few(c.newlyFailing.map((q) => q.id))}; ${c.noLongerJudged.length} no longer judged` +
      `${few(c.noLongerJudged.map((q) => q.id))}; ${c.newlyPassing.length} newly passing`,
  ];
}

/** Test counts while the run goes, by the suite's verdicts (a failed SHOULD is a warning). */
export type Tally = Record<TestVerdict, number>;
export const emptyTally = (): Tally => ({ passed: 0, failed: 0, warning: 0, skipped: 0, broken: 0, blocked: 0 });

/** m:ss (h:mm:ss past an hour). */
export function clock(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const two = (n: number) => String(n).padStart(2, '0');
  return s >= 3600
    ? `${Math.floor(s / 3600)}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`
    : `${Math.floor(s / 60)}:${two(s % 60)}`;
}

/** The progress line: done of total, the counts so far, elapsed and an estimate of the time left. */
export function progressLine(done: number, total: number, t: Tally, elapsedMs: number): string {
  // An estimate once a twentieth of the run (at least 3 tests) is done: the first tests pay the workers' start.
  const left =
    done >= Math.max(3, total / 20) && done < total ? `, about ${clock((elapsedMs / done) * (total - done))} left` : '';
  const others = [
    t.warning ? `${t.warning} warned` : '',
    t.broken ? `${t.broken} broken` : '',
    t.skipped ? `${t.skipped} not run` : '',
  ].filter(Boolean);
  return (
    `tests ${done}/${total}: ${t.passed} passed, ${t.failed} failed, ${t.blocked} blocked` +
    `${others.length ? `, ${others.join(', ')}` : ''}; ${clock(elapsedMs)} elapsed${left}`
  );
}
