import type { QuoteFrom } from '../catalogue/catalogue.js';
import type { LimitStats } from '../http/limits.js';
import type { PastOfRun } from './history.js';
import type { RequirementResult, RunVerdict, Skips, Totals } from './verdicts.js';

// The conformance report's type (reports/conformance.json), in a module of its own: the reporter
// writes it (conformance.ts), the renderers (markdown.ts, specification.ts), the certification
// package and the self-tests read it.

export interface ConformanceReport {
  suite: { name: string; version: string; commit: string; specSha256: string };
  /**
   * `profile`: the profile's one name (harness/config/profile.ts, profileLabel); `profileSha256`:
   * the SHA-256 of its content, by which the history finds earlier runs of the same profile;
   * `draft`: the profile is init's unreviewed draft (its `draft` marker): the verdict judges
   * claims nobody checked.
   */
  target: { baseUrl: string; profile: string; embedded: boolean; profileSha256?: string; draft?: boolean };
  startedAt: string;
  finishedAt: string;
  verdict: RunVerdict;
  /** Errors of the run itself (a test file that does not load, a config error): the verdict is then incomplete. */
  errors?: string[];
  totals: Totals;
  /** The skipped requirements by why: not claimed, not configured, not judged (their sum is totals.skipped). */
  skips?: Skips;
  /** How the run went: its tests, the exchanges they sent, and where the time went. */
  run?: RunStats;
  /** What the run covered: narrowed or whole, areas chosen by --project, its shard. */
  scope?: RunScope;
  /** What changed since the previous run (harness/reporter/history.ts). */
  changes?: PastOfRun['changes'];
  /** The judgement against the baseline, when BASELINE is set (harness/reporter/baseline.ts). */
  baseline?: PastOfRun['baseline'];
  /** How much of the specification's normative content the catalogue judges (harness/reporter/specification.ts). */
  coverage?: Coverage;
  /** The profile's request bounds and the rate the run measured towards the target (harness/http/limits.ts). */
  limits?: LimitStats;
  /** The generated phase's depth (`off` when skipped) and the run's seed, which replays its cases (harness/properties/settings.ts). */
  generated?: { depth: string; cases: number; seed: number };
  /**
   * The kinds of request the run saw accepted (harness/operations/controls.ts): each controls a
   * refusal of its kind; a merge of shards controls every shard's refusals by their union.
   */
  acceptedKinds?: string[];
  requirements: QuotedResult[];
}

/** Whether a run judged the whole suite: a certification takes only a whole run. */
export interface RunScope {
  /** A grep, a test file or --last-failed chose only some tests (a shard too, unless the runner says it was only the shard). */
  narrowed: boolean;
  /** Areas chosen by --project (empty: every area). */
  projects: string[];
  shard: { current: number; total: number } | null;
}

/** A requirement's result with the words of the specification (or reference facts) it rests on. */
export type QuotedResult = RequirementResult & { quote?: string; quoteFrom?: QuoteFrom; pins?: string };

export interface RunStats {
  tests: number;
  /** Requests sent to the target (every recorded exchange, tokens included). */
  exchanges: number;
  /** From the first test's start to the last test's end. */
  wallMs: number;
  /** The longest single test: the floor of the wall time however many workers run. */
  longestTestMs: number;
  longestTest: string;
  /** The tests' durations added up: the wall time of a run with one worker. */
  sumTestMs: number;
  /** Tests that failed or timed out (against a failing bank, the cost of a failure shows here). */
  failedTests: number;
  /** Worker processes the run started (Playwright's worker indexes seen): each costs a start. */
  workerStarts: number;
}

export interface AreaCoverage {
  normative: number;
  judged: number;
  explained: number;
  notExplained: number;
}

/** How much of the specification's normative content the catalogue judges, clause by clause (conformance.json's `coverage`). */
export interface Coverage {
  /** Clauses of the specification's normative sentences and table rows. */
  normative: number;
  /** Those some requirement judges. */
  judged: number;
  /** Those no requirement judges, explained in the not-judged list (any reason but not-yet-judged). */
  explained: number;
  /** judged / normative, in percent (one decimal). */
  judgedPercent: number;
  /** (judged + explained) / normative, in percent (one decimal). */
  judgedOrExplainedPercent: number;
  /** Per area: a clause counts for the areas of the requirements judging it, or the area of its entry. */
  byArea: Record<string, AreaCoverage>;
  /** Normative clauses neither judged nor explained (absent from the list, or "not yet judged"). */
  notExplained: {
    id: string;
    section: string;
    sentence: string;
    /** The clause, when the sentence or row holds several. */
    clause?: string;
    markers: string[];
    why?: string;
  }[];
  /**
   * Judged clauses stating a rule for several resources that is judged on some of them only
   * (harness/catalogue/resource-rules.ts): counted among the judged, listed with the resources left
   * and why. Absent in a report written before it was counted.
   */
  partly?: {
    id: string;
    section: string;
    sentence: string;
    clause?: string;
    rules: { rule: string; notOn: { resource: string; why: string }[] }[];
  }[];
  /**
   * Requirements whose quote takes several clauses of a unit (a whole row) and that
   * spec/clauses.yaml does not say which of them they judge: they judge none until it does.
   */
  unattributed: string[];
  /**
   * Entries of the not-judged list a requirement now judges (the quote wins; the entry can go), and
   * names in spec/clauses.yaml of requirements whose quote does not touch the unit.
   */
  stale: string[];
  /** Entries of the not-judged or clause list that match no sentence, clause or requirement of the specification. */
  unknown: string[];
}
