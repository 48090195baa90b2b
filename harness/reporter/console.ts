import { existsSync, readFileSync } from 'node:fs';
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
import { loadCatalogue } from '../catalogue/catalogue.js';
import { fromRoot } from '../config/paths.js';
import { resolveTarget } from '../config/target.js';
import { listsOnly, reportsDirOf } from '../config/run-options.mjs';
import { ambient, loadSettings } from '../config/user-settings.mjs';
import { controlsOf, requirementsOf, testOutcome } from './fold.js';
import type { ConformanceReport } from './report.js';
import { emptyTally, progressLine, verdictLines, type Tally } from './console-summary.js';
import type { TestVerdict } from './verdicts.js';

/** Options from playwright.config.ts. */
export interface ConsoleOptions {
  /** No progress lines (the self-tests' child runs; Playwright's list prints its own). */
  progress?: boolean;
}

/** A plain progress line at most this often in CI (and at each tenth of the run). */
const PLAIN_EVERY_MS = 30_000;
/** The rewritten line on a terminal: redrawn at most this often, and each second for the clock. */
const TTY_EVERY_MS = 200;

/**
 * The suite's console. While the run goes: one progress line (done of total, passed, failed,
 * blocked so far, elapsed, time left), rewritten in place on a terminal, a plain line at each tenth
 * of the run or every 30 s in CI (CI set, or no terminal). At the end: the verdict and the
 * counts of the report (conformance.json, written by the conformance reporter just before this
 * one ends), each failed MUST in one line, the broken ones, and each root cause with the number of
 * checks it blocks. No test prints as a Playwright failure, with a code frame or a stack: the
 * report and the Allure results hold every message (`run --playwright-list` adds Playwright's list).
 * What a test or the embedded sandbox writes to its output passes through.
 */
/** A configuration error or its hint, as playwright.config.ts prints them. */
const CONFIG_LINES = /^(obg-conformance: configuration error: |hint: settings come from )/;

export default class ConsoleReporter implements Reporter {
  private readonly progress: boolean;
  private readonly tty = !!process.stdout.isTTY && !isCi();
  private total = 0;
  private done = 0;
  private readonly tally: Tally = emptyTally();
  /** The tests that passed by refusing, with the positive controls their refusals name. */
  private readonly refusals: string[][] = [];
  /** Requirements seen not holding so far (a test of theirs failed, broke or was blocked). */
  private readonly notHeld = new Set<string>();
  /** The tests done when the last plain progress line was printed. */
  private saidDone = -1;
  private started = Date.now();
  private lastPlain = Date.now();
  private lastTenth = 0;
  private lastDraw = 0;
  private drawn = false;
  private timer?: NodeJS.Timeout;
  private levels = new Map<string, string>();
  private readonly printedErrors = new Set<string>();
  /** The configuration errors (and hints) already printed: each worker that started says them, the run once. */
  private readonly saidConfig = new Set<string>();
  /** Playwright's --quiet: no output of the tests. */
  private quiet = false;

  constructor(options: ConsoleOptions = {}) {
    this.progress = options.progress !== false;
  }

  printsToStdio() {
    return true;
  }

  onBegin(config: FullConfig, suite: Suite) {
    this.started = Date.now();
    this.lastPlain = this.started;
    this.quiet = !!config.quiet;
    this.total = suite.allTests().length;
    try {
      this.levels = new Map(loadCatalogue().all.map((r) => [r.id, r.level]));
    } catch {
      /* the conformance reporter says what is wrong with the catalogue */
    }
    if (listsOnly(process.argv)) return;
    const areas = new Set(suite.allTests().map((t) => relative(fromRoot('tests'), t.location.file).split(sep)[0]));
    this.say(
      `obg-conformance: ${this.total} tests${areas.size ? ` of ${[...areas].join(', ')}` : ''}, ${config.workers} worker(s)${describeTarget()}`,
    );
    // On a terminal the line's clock moves each second; in CI a line comes at least every 30 s, even
    // while every worker waits on the bank (an SCA of minutes), so the job is seen alive.
    if (this.progress)
      this.timer = this.tty
        ? setInterval(() => this.draw(true), 1000).unref()
        : setInterval(() => this.plain(false), PLAIN_EVERY_MS / 3).unref();
  }

  onTestEnd(test: TestCase, result: TestResult) {
    // A test run again after a failure (a retry) ends once more: counted once, at its last end.
    if (result.retry < test.retries && (result.status === 'failed' || result.status === 'timedOut')) return;
    this.done++;
    const verdict = this.verdictOf(test, result);
    const controls = verdict === 'passed' ? controlsOf(test, result) : [];
    if (controls.length) this.refusals.push(controls);
    else this.tally[verdict]++;
    if (verdict === 'failed' || verdict === 'broken' || verdict === 'blocked')
      for (const id of requirementsOf(test)) this.notHeld.add(id);
    if (!this.progress) return;
    if (this.tty) return this.draw(false);
    this.plain(true);
  }

  /** A plain progress line (CI): at each tenth of the run (`atTest`), and when the last is 30 s old. */
  private plain(atTest: boolean) {
    if (!this.total) return;
    const tenth = Math.floor((this.done * 10) / Math.max(1, this.total));
    const now = Date.now();
    if ((atTest && tenth > this.lastTenth) || now - this.lastPlain >= PLAIN_EVERY_MS) {
      this.lastTenth = tenth;
      this.lastPlain = now;
      this.saidDone = this.done;
      this.say(this.line());
    }
  }

  // Under Playwright's --quiet a test's output is dropped, as Playwright's own reporters drop it (the
  // manual agent's authorise URL included: it is written while its test runs); the runner's passes.
  onStdOut(chunk: string | Buffer, test?: TestCase) {
    if (!(test && this.quiet)) this.pass(process.stdout, chunk);
  }

  onStdErr(chunk: string | Buffer, test?: TestCase) {
    if (test && this.quiet) return;
    // A configuration error found in the workers (playwright.config.ts, `configured`): each worker
    // that had started says it before the run stops; its lines are printed once.
    // (a chunk is what one console.error wrote: the message, its lines included, or the hint).
    const text = chunk.toString();
    if (!test && CONFIG_LINES.test(text)) {
      if (this.saidConfig.has(text)) return;
      this.saidConfig.add(text);
    }
    this.pass(process.stderr, chunk);
  }

  onError(error: TestError) {
    const text = plainError(error.message ?? error.value ?? 'unknown error');
    this.printedErrors.add(text.split('\n')[0]);
    this.clear();
    // The message only: its stack and location are the runner's or the harness's, not the bank's (DEBUG=obg shows them).
    process.stderr.write(`error: ${text.split('\n').slice(0, 12).join('\n')}\n`);
    if (/\bobg\b/.test(loadSettings().DEBUG) && error.stack) process.stderr.write(`${error.stack}\n`);
    this.draw(true);
  }

  async onEnd(result: FullResult) {
    if (this.timer) clearInterval(this.timer);
    this.clear();
    if (listsOnly(process.argv)) return;
    // The last progress line, unless the run's last plain line said it already.
    if (this.progress && this.total && (this.tty || this.saidDone !== this.done)) this.say(this.line());
    const report = this.report();
    // A run stopped by a configuration error (a worker interrupts it) has no report: no verdict to cover.
    if (result.status === 'interrupted' && report)
      this.say('the run was interrupted: the verdict covers the tests that ended');
    if (!report) {
      this.say('verdict: none: no conformance.json was written for this run (see the errors above)');
      return;
    }
    for (const e of report.errors ?? [])
      if (!this.printedErrors.has(plainError(e).split('\n')[0]))
        process.stderr.write(`error: ${plainError(e).split('\n')[0]}\n`);
    for (const l of verdictLines(report)) this.say(l);
  }

  /** The suite's verdict of one test, as the report's fold gives it (a failure of only SHOULDs is a warning). */
  private verdictOf(test: TestCase, result: TestResult): TestVerdict {
    const v = testOutcome(test, result).status;
    if (v !== 'failed') return v;
    return requirementsOf(test).some((id) => this.levels.get(id) === 'MUST') ? 'failed' : 'warning';
  }

  /**
   * The progress line. A refusal that passed counts as blocked once its positive control is seen
   * not holding (the report's fold blocks it so at the end), as passed until then.
   */
  private line() {
    const t = { ...this.tally };
    for (const controls of this.refusals) t[controls.some((id) => this.notHeld.has(id)) ? 'blocked' : 'passed']++;
    return progressLine(this.done, this.total, t, Date.now() - this.started);
  }

  /** This run's conformance.json (not an older one left in the folder). */
  private report(): ConformanceReport | undefined {
    let dir: string;
    try {
      dir = resolveTarget().reportsDir;
    } catch {
      dir = reportsDirOf();
    }
    const file = join(dir, 'conformance.json');
    if (!existsSync(file)) return undefined;
    try {
      const r = JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport;
      return Date.parse(r.finishedAt) >= this.started - 1000 ? r : undefined;
    } catch {
      return undefined;
    }
  }

  private say(line: string) {
    this.clear();
    process.stdout.write(`${line}\n`);
  }

  /** Output of a test or of the embedded sandbox: under the progress line, which is drawn again. */
  private pass(stream: NodeJS.WriteStream, chunk: string | Buffer) {
    this.clear();
    stream.write(chunk);
    // On a terminal the progress line is drawn under it: a line left open would be wiped.
    if (this.tty && this.progress && !chunk.toString().endsWith('\n')) stream.write('\n');
    this.draw(true);
  }

  private clear() {
    if (!this.drawn) return;
    process.stdout.write('\r\x1b[2K');
    this.drawn = false;
  }

  /** The progress line rewritten in place (a terminal only). */
  private draw(force: boolean) {
    if (!this.tty || !this.progress || !this.total) return;
    const now = Date.now();
    if (!force && now - this.lastDraw < TTY_EVERY_MS) return;
    this.lastDraw = now;
    const width = process.stdout.columns || 120;
    const line = this.line();
    process.stdout.write(`\r\x1b[2K${line.length >= width ? `${line.slice(0, width - 2)}…` : line}`);
    this.drawn = true;
  }
}

/** An error's text without colours and without a leading "Error: ". */
const plainError = (text: string) => stripVTControlCharacters(text).replace(/^Error: /, '');

/** CI: the CI variable set to anything but false or 0. */
function isCi(): boolean {
  const v = (ambient('CI') ?? '').trim().toLowerCase();
  return v !== '' && v !== 'false' && v !== '0';
}

function describeTarget(): string {
  try {
    const t = resolveTarget();
    return `; target ${t.embedded ? 'the embedded reference sandbox' : t.baseUrl}, profile ${t.profileName}`;
  } catch {
    return '';
  }
}
