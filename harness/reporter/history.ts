// What changed since the last run, and the nightly summary for people.
//
// Every run leaves a small record of its verdicts under <reports>/history/ (one JSON file a run).
// The next run compares with the previous record of the same target and the same profile content
// (the SHA-256 of what the profile says, not its name: a profile replaced under the same name
// starts a new history), or with the conformance.json named by PREVIOUS_REPORT: newly failing,
// no longer judged (a verdict that became blocked, untested or skipped: nothing is known of it
// now, which is no new failure), newly passing, changed messages, and the requirements whose
// verdict went back and forth within the last HISTORY_RUNS runs (flaky on the target's side).
// Beside the reports it writes summary.txt (one line) and summary.json.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { redactText } from '../evidence/redact.js';
import { applyBaseline, baselineText, loadBaseline, renderBaseline, type BaselineOutcome } from './baseline.js';
import type { RequirementResult, RequirementVerdict, RunVerdict, Totals } from './verdicts.js';
import { internal, loadSettings, type Settings, SETTINGS_SCHEMA } from '../config/user-settings.mjs';

/** The settings of the past a run is compared with (loadSettings; a test gives its own). */
type PastSettings = Partial<Pick<Settings, 'PREVIOUS_REPORT' | 'HISTORY_RUNS' | 'BASELINE'>>;

export const HISTORY_FOLDER = 'history';
/** How many records the history keeps. */
const KEEP = 50;

/** The target of a run: its address, the profile's one name and the SHA-256 of the profile's content. */
export type RunTarget = { baseUrl: string; profile: string; embedded: boolean; profileSha256?: string };

interface ReportLike {
  target: RunTarget;
  startedAt: string;
  finishedAt: string;
  verdict: RunVerdict;
  errors?: string[];
  totals: Totals;
  requirements: RequirementResult[];
}

export interface HistoryRecord {
  finishedAt: string;
  verdict: RunVerdict;
  target: RunTarget;
  /** Verdict and first line of the first message that did not pass, by requirement id. */
  requirements: Record<string, { verdict: RequirementVerdict; message?: string }>;
}

export interface Changes {
  /**
   * The run compared with: its end, and where it came from (a history record or PREVIOUS_REPORT);
   * `otherProfile`: a PREVIOUS_REPORT made with another profile content (named).
   */
  previous?: { finishedAt: string; verdict: RunVerdict; source: string; otherProfile?: string };
  /** Judged and not failing before (passed, or not judged then), failing now: failed, warning or broken. */
  newlyFailing: { id: string; verdict: RequirementVerdict; was: RequirementVerdict }[];
  /** Judged before (passed, failed, warning, broken), not judged now (blocked, untested, skipped): no verdict, no new failure. */
  noLongerJudged: { id: string; verdict: RequirementVerdict; was: RequirementVerdict }[];
  newlyPassing: { id: string; was: RequirementVerdict }[];
  changedMessages: { id: string; verdict: RequirementVerdict; was: string; now: string }[];
  /** Requirements whose verdict changed at least twice within the last `window` runs (this one included). */
  flaky: { id: string; verdicts: RequirementVerdict[] }[];
  window: number;
}

export interface NightlySummary {
  line: string;
  verdict: RunVerdict;
  target: string;
  profile: string;
  finishedAt: string;
  totals: Totals;
  newFailures: string[];
  /** Judged in the previous run, not judged in this one (blocked, untested, skipped). */
  noLongerJudged: string[];
  fixed: string[];
  regressions?: string[];
  flaky: string[];
}

const NOT_PASSED = new Set<RequirementVerdict>(['failed', 'warning', 'broken', 'blocked', 'untested']);
/** The verdicts that judge the target; blocked, untested and skipped say nothing of it. */
const JUDGED = new Set<RequirementVerdict>(['passed', 'failed', 'warning', 'broken']);
/** A verdict against the target: failed, warning or broken. */
const FAILING = new Set<RequirementVerdict>(['failed', 'warning', 'broken']);

/** A message's first line without what differs from run to run (ids, times, durations). */
export function messageKey(message: string | undefined): string {
  return (message ?? '')
    .split('\n')[0]
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<id>')
    .replace(/\d{4}-\d{2}-\d{2}T[\d:.]+Z?/g, '<time>')
    .replace(/\b\d+(\.\d+)? ?ms\b/g, '<ms>')
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>')
    .trim()
    .slice(0, 300);
}

export function recordOf(r: ReportLike): HistoryRecord {
  const requirements: HistoryRecord['requirements'] = {};
  for (const q of r.requirements) {
    const msg = q.tests.find((t) => t.status !== 'passed' && t.status !== 'skipped')?.message;
    requirements[q.id] =
      NOT_PASSED.has(q.verdict) && msg
        ? { verdict: q.verdict, message: redactText(messageKey(msg)) }
        : { verdict: q.verdict };
  }
  return { finishedAt: r.finishedAt, verdict: r.verdict, target: r.target, requirements };
}

/**
 * The same target and profile content: the embedded sandbox has a new port every run, so it is one
 * target whatever its address; the profile is the same when its content is (profileSha256),
 * whatever its name. A record without the content's digest (an older suite's) matches nothing.
 */
export const sameTarget = (a: RunTarget, b: RunTarget) =>
  !!a.profileSha256 &&
  a.profileSha256 === b.profileSha256 &&
  a.embedded === b.embedded &&
  (a.embedded || a.baseUrl === b.baseUrl);

/** The history's records of this target and profile content, oldest first. */
export function loadHistory(reportsDir: string, target: HistoryRecord['target']): HistoryRecord[] {
  const dir = join(reportsDir, HISTORY_FOLDER);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => /^run-.*\.json$/.test(n))
    .sort()
    .flatMap((n) => {
      try {
        return [JSON.parse(readFileSync(join(dir, n), 'utf8')) as HistoryRecord];
      } catch {
        return [];
      }
    })
    .filter((h) => h.requirements && sameTarget(h.target, target))
    .sort((a, b) => a.finishedAt.localeCompare(b.finishedAt));
}

/** Keeps a record of this run in the history (and only the last KEEP records). */
export function recordRun(reportsDir: string, record: HistoryRecord): void {
  const dir = join(reportsDir, HISTORY_FOLDER);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `run-${record.finishedAt.replace(/[:.]/g, '-')}.json`), JSON.stringify(record));
  const runs = readdirSync(dir)
    .filter((n) => /^run-.*\.json$/.test(n))
    .sort();
  for (const old of runs.slice(0, Math.max(0, runs.length - KEEP))) rmSync(join(dir, old), { force: true });
}

/** Compares a run with the one before it, and finds the flips within the window of past runs. */
export function compareRuns(
  current: HistoryRecord,
  previous: HistoryRecord | undefined,
  past: HistoryRecord[],
  window: number,
  source = 'history',
): Changes {
  const changes: Changes = {
    newlyFailing: [],
    noLongerJudged: [],
    newlyPassing: [],
    changedMessages: [],
    flaky: [],
    window,
  };
  if (previous) {
    const otherProfile =
      previous.target.profileSha256 &&
      current.target.profileSha256 &&
      previous.target.profileSha256 !== current.target.profileSha256
        ? { otherProfile: previous.target.profile }
        : {};
    changes.previous = { finishedAt: previous.finishedAt, verdict: previous.verdict, source, ...otherProfile };
    for (const [id, now] of Object.entries(current.requirements)) {
      const was = previous.requirements[id];
      if (was) compareOne(changes, id, now, was);
    }
  }
  const runs = [...past.slice(-(window - 1)), current];
  for (const id of Object.keys(current.requirements)) {
    // Only verdicts that judge the target: a requirement blocked in between did not flip.
    const seq = runs
      .map((r) => r.requirements[id]?.verdict)
      .filter((v): v is RequirementVerdict => !!v && JUDGED.has(v));
    const flips = seq.filter((v, i) => i > 0 && (v === 'passed') !== (seq[i - 1] === 'passed')).length;
    if (flips >= 2) changes.flaky.push({ id, verdicts: seq });
  }
  return changes;
}

type Seen = HistoryRecord['requirements'][string];

/**
 * One requirement now and in the previous run. Judged before and not judged now (blocked,
 * untested, skipped) is "no longer judged", never a new failure; failing now and not failing
 * before (passed, or not judged then) is newly failing; passing now and not before is newly passing.
 */
function compareOne(changes: Changes, id: string, now: Seen, was: Seen): void {
  if (!JUDGED.has(now.verdict)) {
    if (JUDGED.has(was.verdict)) changes.noLongerJudged.push({ id, verdict: now.verdict, was: was.verdict });
    else if (now.verdict !== 'skipped' && was.verdict !== 'skipped') changedMessage(changes, id, now, was);
  } else if (FAILING.has(now.verdict) && !FAILING.has(was.verdict))
    changes.newlyFailing.push({ id, verdict: now.verdict, was: was.verdict });
  else if (now.verdict === 'passed' && was.verdict !== 'passed' && was.verdict !== 'skipped')
    changes.newlyPassing.push({ id, was: was.verdict });
  else if (FAILING.has(now.verdict)) changedMessage(changes, id, now, was);
}

/** The same failing (or not judged) requirement, with another verdict or message than before. */
function changedMessage(changes: Changes, id: string, now: Seen, was: Seen): void {
  if (now.verdict === was.verdict && (now.message ?? '') === (was.message ?? '')) return;
  changes.changedMessages.push({
    id,
    verdict: now.verdict,
    was: `${was.verdict}: ${was.message ?? ''}`,
    now: `${now.verdict}: ${now.message ?? ''}`,
  });
}

/** The section "Since the previous run" of conformance.md. */
export function renderChanges(c: Changes | undefined): string[] {
  if (!c) return [];
  const out = ['## Since the previous run', ''];
  if (!c.previous) out.push('No previous run of this target and profile content is recorded.', '');
  else
    out.push(
      `Compared with the run that ended ${c.previous.finishedAt} (${c.previous.verdict}, from ${c.previous.source})${c.previous.otherProfile ? `, made with another profile content (${c.previous.otherProfile}): a change may be the profile's` : ''}.`,
      '',
    );
  const list = (title: string, items: string[]) => {
    if (items.length) out.push(`${title}:`, '', ...items.map((i) => `- ${i}`), '');
  };
  if (c.previous) {
    list(
      'Newly failing',
      c.newlyFailing.map((q) => `\`${q.id}\`: ${q.was} → ${q.verdict}`),
    );
    list(
      'No longer judged (blocked, untested or not run now: no verdict either way, see its root cause)',
      c.noLongerJudged.map((q) => `\`${q.id}\`: ${q.was} → ${q.verdict}`),
    );
    list(
      'Newly passing',
      c.newlyPassing.map((q) => `\`${q.id}\`: ${q.was} → passed`),
    );
    list(
      'Changed messages',
      c.changedMessages.map((q) => `\`${q.id}\`: was "${q.was}", now "${q.now}"`),
    );
    if (!c.newlyFailing.length && !c.noLongerJudged.length && !c.newlyPassing.length && !c.changedMessages.length)
      out.push('No verdict and no message changed.', '');
  }
  list(
    `Flaky on the target's side (verdict flipped at least twice within the last ${c.window} runs)`,
    c.flaky.map((q) => `\`${q.id}\`: ${q.verdicts.join(' → ')}`),
  );
  return out;
}

/** The nightly summary: one short line and a small JSON, for a chat webhook or an issue tracker. */
export function nightlySummary(r: ReportLike, changes?: Changes, baseline?: BaselineOutcome): NightlySummary {
  const failing = r.requirements.filter((q) => NOT_PASSED.has(q.verdict) && q.verdict !== 'warning').map((q) => q.id);
  // New failures are new against something: the previous run, else the baseline. A first run
  // with neither has none; its failures are listed as failing, since there is no previous run.
  const newFailures = changes?.previous
    ? changes.newlyFailing.map((q) => q.id)
    : baseline
      ? baseline.regressions.map((q) => q.id)
      : [];
  const noLongerJudged = changes?.previous ? changes.noLongerJudged.map((q) => q.id) : [];
  const firstRun = !changes?.previous && !baseline;
  const fixed = [...new Set([...(changes?.newlyPassing.map((q) => q.id) ?? []), ...(baseline?.fixed ?? [])])];
  const t = r.totals;
  const target = r.target.embedded ? 'embedded reference sandbox' : r.target.baseUrl;
  const few = (ids: string[]) => ids.slice(0, 5).join(', ') + (ids.length > 5 ? ` and ${ids.length - 5} more` : '');
  const line =
    `obg-conformance ${target} (${r.target.profile}) ${r.finishedAt.slice(0, 10)}: ${r.verdict.toUpperCase()}` +
    `${baseline ? (baseline.exitCode === 0 ? ', baseline held' : ', baseline broken') : ''}; ` +
    `${t.passed} passed, ${t.failed} failed, ${t.warning} warning, ${t.broken} broken, ${t.blocked} blocked, ${t.untested} untested` +
    `${newFailures.length ? `; new failures: ${few(newFailures)}` : ''}` +
    `${noLongerJudged.length ? `; no longer judged: ${few(noLongerJudged)}` : ''}` +
    `${firstRun && failing.length ? `; failing (no previous run): ${few(failing)}` : ''}${fixed.length ? `; fixed: ${few(fixed)}` : ''}`;
  return {
    line,
    verdict: r.verdict,
    target,
    profile: r.target.profile,
    finishedAt: r.finishedAt,
    totals: t,
    newFailures,
    noLongerJudged,
    fixed,
    ...(baseline ? { regressions: baseline.regressions.map((q) => q.id) } : {}),
    flaky: changes?.flaky.map((q) => q.id) ?? [],
  };
}

export interface PastOfRun {
  changes: Changes;
  baseline?: BaselineOutcome;
}

/**
 * What the run adds about the past: the comparison with the previous run (PREVIOUS_REPORT, or
 * the history under `reportsDir`) and, with BASELINE set, the judgement against the baseline.
 * The settings are the user's (the environment, else `.env`: harness/config/user-settings.mjs).
 */
export function pastOfRun(r: ReportLike, reportsDir: string, env: PastSettings = loadSettings()): PastOfRun {
  const current = recordOf(r);
  const past = loadHistory(reportsDir, r.target).filter((h) => h.finishedAt < r.finishedAt);
  let previous = past.at(-1);
  let source = previous ? `${HISTORY_FOLDER}/` : '';
  if (env.PREVIOUS_REPORT) {
    try {
      previous = recordOf(JSON.parse(readFileSync(env.PREVIOUS_REPORT, 'utf8')) as ReportLike);
      source = env.PREVIOUS_REPORT;
    } catch (err) {
      (r.errors ??= []).push(`PREVIOUS_REPORT: ${env.PREVIOUS_REPORT} could not be read: ${(err as Error).message}`);
    }
  }
  const window = Math.max(2, Number(env.HISTORY_RUNS || SETTINGS_SCHEMA.properties.HISTORY_RUNS.default));
  const changes = compareRuns(current, previous, past, window, source);
  const baseline = env.BASELINE ? applyBaseline(r, env.BASELINE, loadBaseline(env.BASELINE)) : undefined;
  return { changes, ...(baseline ? { baseline } : {}) };
}

/**
 * After the reports are written: keeps the run in the history, writes summary.txt and
 * summary.json, and with OBG_WRITE_BASELINE (`--write-baseline`) the run's failures and warnings
 * as a new baseline (an entry of the current BASELINE keeps its reason and expiry).
 */
export function afterRun(
  r: ReportLike & Partial<PastOfRun>,
  reportsDir: string,
  env: PastSettings = loadSettings(),
  baselineFile = internal('writeBaseline'),
): NightlySummary {
  recordRun(reportsDir, recordOf(r));
  if (baselineFile) {
    const previous = env.BASELINE && existsSync(env.BASELINE) ? loadBaseline(env.BASELINE).entries : [];
    mkdirSync(dirname(baselineFile), { recursive: true });
    writeFileSync(baselineFile, redactText(baselineText(r, previous)));
  }
  const summary = nightlySummary(r, r.changes, r.baseline);
  writeFileSync(join(reportsDir, 'summary.txt'), redactText(`${summary.line}\n`));
  writeFileSync(join(reportsDir, 'summary.json'), redactText(JSON.stringify(summary, null, 2)));
  return summary;
}

/** The sections of conformance.md about the past: the baseline, then the changes since the previous run. */
export function renderPast(r: Partial<PastOfRun>): string[] {
  return [...renderBaseline(r.baseline), ...renderChanges(r.changes)];
}
