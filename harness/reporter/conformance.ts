import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type {
  FullConfig,
  FullResult,
  Reporter,
  Suite,
  TestCase,
  TestError,
  TestResult,
} from '@playwright/test/reporter';
import { loadCatalogue, type Catalogue } from '../catalogue/catalogue.js';
import { fromRoot } from '../config/paths.js';
import { resolveTarget, type Target } from '../config/target.js';
import { secretsOf } from '../config/target.js';
import { redactText, registerSecret } from '../evidence/redact.js';
import { REQUIREMENT_ANNOTATION } from '../catalogue/req.js';
import { BROKEN_MARK } from '../http/broken.js';
import { limitStats } from '../http/limits.js';
import { suiteInfo } from './run-info.js';
import { renderMarkdown } from './markdown.js';
import { afterRun, pastOfRun } from './history.js';
import { mapSpecificationOrSay } from './specification.js';
import { writeSpecificationMap } from './specification-html.js';
import { acceptedKindsOf, foldRequirements } from './fold.js';
import { foldAllureResults, foldedTests } from './one-verdict.js';
import { foldJunit } from './junit-verdict.js';
import { listsOnly, reportsDirOf } from '../config/run-options.mjs';
import type { QuotedResult, RunScope, RunStats } from './report.js';
import { runVerdict, skipsOf, toResult, totalsOf, type RequirementResult } from './verdicts.js';
import { profileSha256 } from '../config/profile.js';
import { generatedOfRun } from '../properties/settings.js';
import { internal } from '../config/user-settings.mjs';

/** The report's type lives in report.ts; its importers may still name this module. */
export type { ConformanceReport, QuotedResult, RunScope, RunStats } from './report.js';

/** Adds each requirement's quote (and its source file) to its result, after the text. */
export function withQuotes(results: RequirementResult[], catalogue: Catalogue): QuotedResult[] {
  return results.map(({ verdict, tests, ...head }) => {
    const r = catalogue.byId.get(head.id);
    return { ...head, quote: r?.quote, quoteFrom: r?.quoteFrom, ...(r?.pins ? { pins: r.pins } : {}), verdict, tests };
  });
}

/** The one test line of a requirement the profile does not claim (as the fold writes it). */
const notClaimedTest = (missing: string[]) => ({
  title: '(no test ran)',
  file: '',
  status: 'skipped' as const,
  message: `not claimed: ${missing.join(', ')}`,
});

/** An exchange attachment is named "NN METHOD /path → status" (harness/evidence/format.ts). */
/** A test's area: the folder under tests/ of its spec file (tests/<area>/…). */
export function areaOf(test: TestCase): string {
  return relative(fromRoot('tests'), test.location.file).split(sep)[0];
}

const EXCHANGE_ATTACHMENT = /^\d+ [A-Z]+ \S* → /;

export function runStats(outcomes: Iterable<{ test: TestCase; result: TestResult }>): RunStats {
  const list = [...outcomes];
  const starts = list.map((o) => o.result.startTime.getTime());
  const ends = list.map((o) => o.result.startTime.getTime() + o.result.duration);
  const longest = list.reduce<{ test: TestCase; result: TestResult } | undefined>(
    (a, o) => (!a || o.result.duration > a.result.duration ? o : a),
    undefined,
  );
  return {
    tests: list.length,
    exchanges: list.reduce(
      (n, o) => n + o.result.attachments.filter((a) => EXCHANGE_ATTACHMENT.test(a.name)).length,
      0,
    ),
    wallMs: list.length ? Math.max(...ends) - Math.min(...starts) : 0,
    longestTestMs: longest?.result.duration ?? 0,
    longestTest: longest ? `${areaOf(longest.test)} › ${longest.test.title}` : '',
    sumTestMs: list.reduce((n, o) => n + o.result.duration, 0),
    failedTests: list.filter((o) => o.result.status === 'failed' || o.result.status === 'timedOut').length,
    workerStarts: new Set(list.filter((o) => o.result.workerIndex >= 0).map((o) => o.result.workerIndex)).size,
  };
}

/**
 * Folds the run's test results into a verdict per requirement and writes
 * reports/conformance.json (for tools) and reports/conformance.md (for people).
 */
/** What a worker prints when it finds the configuration wrong (playwright.config.ts, `configured`). */
const CONFIG_ERROR_LINE = /obg-conformance: configuration error: ([^\n]*)/;
/** How Playwright ends the tests of a worker that exited 2 (a configuration error) before or while running them. */
const WORKER_CONFIG_EXIT = /worker process exited unexpectedly \(code=2\b/;

export default class ConformanceReporter implements Reporter {
  private startedAt = new Date();
  private areas = new Set<string>();
  private filtered = false;
  private named = new Set<string>();
  private readonly outcomes = new Map<string, { test: TestCase; result: TestResult }>();
  private readonly errors: string[] = [];
  private areaProjects: string[] = [];
  private shard: RunScope['shard'] = null;
  /** Projects (areas) chosen by --project: the root suite's project suites. */
  private chosenProjects: string[] = [];
  private target?: Target;
  /** Playwright's root folder of the tests, from which allure-playwright names each test. */
  private rootDir = fromRoot('tests');
  /** A configuration error a worker found (it said so and exited 2): the run has no verdict. */
  private configError?: string;

  printsToStdio() {
    return false;
  }

  onBegin(config: FullConfig, suite: Suite) {
    this.startedAt = new Date();
    this.rootDir = config.rootDir;
    this.shard = config.shard ? { current: config.shard.current, total: config.shard.total } : null;
    if (internal('areaProjects') === '1') this.chosenProjects = suite.suites.map((s) => s.title);
    // Areas asked for by --project (one project per area), known even when no test runs.
    if (internal('areaProjects') === '1') this.areaProjects = config.projects.map((p) => p.name);
    try {
      this.target = resolveTarget();
      for (const s of secretsOf(this.target)) registerSecret(s);
    } catch {
      this.target = undefined;
    }
    // The areas run: the folders (tests/<area>/) of the tests in the run.
    for (const t of suite.allTests()) this.areas.add(areaOf(t));
    const grep = config.grep;
    const grepList = Array.isArray(grep) ? grep : [grep];
    // A grep in the config, or the runner's word (scripts/conformance.mjs) that its command line narrows the run.
    this.filtered = grepList.some((g) => g.source !== '.*') || !!config.grepInvert || internal('runNarrowed') === '1';
    for (const t of suite.allTests()) {
      for (const a of t.annotations)
        if (a.type === REQUIREMENT_ANNOTATION && a.description) this.named.add(a.description);
    }
  }

  onTestEnd(test: TestCase, result: TestResult) {
    this.outcomes.set(test.id, { test, result });
    if (result.errors.some((e) => WORKER_CONFIG_EXIT.test(e.message ?? '')))
      this.configError ??= 'a worker stopped on a configuration error (exit 2): see the message above';
  }

  // A worker that finds the configuration wrong says so (playwright.config.ts, `configured`) and exits 2.
  onStdErr(chunk: string | Buffer) {
    const said = CONFIG_ERROR_LINE.exec(String(chunk));
    if (said) this.configError = said[1];
  }

  onError(error: TestError) {
    this.errors.push(stripVTControlCharacters(error.message ?? error.value ?? 'unknown error').slice(0, 2000));
  }

  async onEnd(_result: FullResult) {
    // `--list` runs nothing: no report and no history record (the next run would compare with it).
    if (listsOnly(process.argv)) return;
    // A configuration error is never a verdict: no report and no history record (the runner exits 2).
    if (this.configError) return;
    const catalogue = loadCatalogue();
    const claimed = new Set(this.target ? this.target.profile.features : []);
    const unavailable = internal('targetUnavailable');
    let folded: RequirementResult[];
    if (unavailable) {
      // No test ran: every requirement of the areas asked for is broken for that one reason (or not claimed).
      const message = `${BROKEN_MARK} target unavailable: ${unavailable}`;
      this.errors.splice(0, this.errors.length, `target unavailable: ${unavailable}`);
      folded = catalogue.all
        .filter((r) => !this.areaProjects.length || this.areaProjects.includes(r.area))
        .map((r) =>
          r.features.every((f) => claimed.has(f))
            ? toResult(r, [{ title: 'the target, before any check', file: '', status: 'broken', message }])
            : {
                ...toResult(r, []),
                verdict: 'skipped' as const,
                tests: [notClaimedTest(r.features.filter((f) => !claimed.has(f)))],
              },
        );
    } else {
      const inScope = catalogue.all.filter((r) => (this.filtered ? this.named.has(r.id) : this.areas.has(r.area)));
      // A run of some areas, some tests or one shard keeps a refusal whose positive control is not in
      // the run (its tests ran elsewhere: a whole run judges both); a whole run blocks it.
      const partial = this.filtered || this.areaProjects.length > 0 || !!this.shard;
      folded = foldRequirements(inScope, this.outcomes.values(), claimed, {
        unrunControls: partial ? 'keep' : 'block',
        deferUnseen: !!this.shard,
      });
    }
    const requirements = withQuotes(folded, catalogue);
    // The kinds of request seen accepted: a merge of shards controls each shard's refusals by them.
    const acceptedKinds = [
      ...new Set([...this.outcomes.values()].flatMap(({ test, result }) => acceptedKindsOf(test, result))),
    ].sort();
    const info = suiteInfo();
    // Which normative sentence of the specification is judged, by which requirement (specification.ts).
    const specMap = mapSpecificationOrSay();
    const report = {
      suite: { name: info.name, version: info.version, commit: info.commit, specSha256: info.specSha256 },
      target: {
        baseUrl: this.target?.baseUrl ?? '(unknown)',
        profile: this.target?.profileName ?? '(unknown)',
        embedded: this.target?.embedded ?? false,
        ...(this.target ? { profileSha256: profileSha256(this.target.profileName) } : {}),
        ...(this.target?.profile.draft ? { draft: true } : {}),
      },
      startedAt: this.startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      // A run that could not load its tests, or ran none, judged nothing: never conformant.
      verdict: this.errors.length || this.outcomes.size === 0 ? ('incomplete' as const) : runVerdict(requirements),
      ...(this.errors.length || this.outcomes.size === 0
        ? { errors: this.errors.length ? this.errors : ['no test ran'] }
        : {}),
      totals: totalsOf(requirements),
      skips: skipsOf(requirements),
      run: runStats(this.outcomes.values()),
      scope: {
        // A shard is judged as a part (scope.shard); it is narrowed only when something else chose its tests too.
        narrowed: this.shard && internal('runNarrowedBeyondShard') === '0' ? false : this.filtered,
        projects: this.chosenProjects,
        shard: this.shard,
      },
      ...(specMap ? { coverage: specMap.coverage } : {}),
      ...(limitStats() ? { limits: limitStats() } : {}),
      generated: generatedOfRun(),
      acceptedKinds,
      requirements,
    };
    const dir = this.target?.reportsDir ?? reportsDirOf();
    mkdirSync(dir, { recursive: true });
    // The baseline's judgement and the changes since the previous run, before the requirements.
    const { requirements: judged, ...head } = report;
    const full = { ...head, ...pastOfRun(report, dir), requirements: judged };
    writeFileSync(join(dir, 'conformance.json'), redactText(JSON.stringify(full, null, 2)));
    writeFileSync(join(dir, 'conformance.md'), redactText(renderMarkdown(full)));
    // The Allure results and junit.xml say what the report says (one-verdict.ts), before the map links to them.
    const tests = foldedTests(full.requirements);
    foldAllureResults(join(dir, 'allure-results'), tests, this.rootDir, full.requirements);
    foldJunit(join(dir, 'junit.xml'), tests);
    if (specMap)
      writeSpecificationMap(full, join(dir, 'specification.html'), {
        map: specMap,
        allureResults: join(dir, 'allure-results'),
      });
    afterRun(full, dir);
  }
}
