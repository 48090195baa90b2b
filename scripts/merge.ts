// `npm run merge -- <folder> <folder> ... [--out=<dir>]`: joins the reports of the shards of one
// run (`npm run conformance -- --shard=i/n` on n machines, each folder a shard's REPORTS_DIR) into
// one conformance.json, one conformance.md, one junit.xml (from Playwright's blob reports), one
// Allure report and one exit code. A requirement judged in several shards folds as in one run:
// its tests from every shard, worst verdict first. With BASELINE set the exit code is the
// baseline's, as for a whole run; the merged run enters the history of --out and writes the
// nightly summary there.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadCatalogue, type Catalogue } from '../harness/catalogue/catalogue.js';
import { fromRoot } from '../harness/config/paths.js';
import { loadProfile } from '../harness/config/profile.js';
import { redactText } from '../harness/evidence/redact.js';
import type { ConformanceReport, QuotedResult } from '../harness/reporter/report.js';
import { afterRun, pastOfRun } from '../harness/reporter/history.js';
import { verdictLines } from '../harness/reporter/console-summary.js';
import { renderMarkdown } from '../harness/reporter/markdown.js';
import { packageFile, reportsDirOf } from '../harness/config/run-options.mjs';
import { blockUncontrolled, seenAccepted } from '../harness/reporter/fold.js';
import { requirementVerdict, runVerdict, skipsOf, toResult, totalsOf } from '../harness/reporter/verdicts.js';
import { foldAllureResults, foldedTests } from '../harness/reporter/one-verdict.js';
import { foldJunit } from '../harness/reporter/junit-verdict.js';
import { makeOffline } from '../harness/reporter/offline-html.mjs';
import { handedDown } from '../harness/config/user-settings.mjs';

/**
 * Gives back what each shard's deferred refusals judged (blocked there: that shard saw no call of
 * their kind accepted) where a call of every kind they refused was accepted in some shard.
 */
function restoreDeferred(parts: ConformanceReport[], accepted: ReadonlySet<string>): void {
  for (const p of parts)
    for (const q of p.requirements) {
      let changed = false;
      q.tests = q.tests.map((t) => {
        if (!t.deferred || !t.refusedKinds?.every((k) => seenAccepted(k, accepted))) return t;
        changed = true;
        const { deferred, blockedBy: _, ...rest } = t;
        return { ...rest, status: deferred.status, message: deferred.message };
      });
      if (!changed) continue;
      q.verdict = requirementVerdict(q.tests);
      const roots = [...new Set(q.tests.filter((t) => t.status === 'blocked').map((t) => t.blockedBy!))];
      if (q.verdict === 'blocked') q.blockedBy = roots;
      else delete q.blockedBy;
    }
}

/** The shards' requirements by id: a requirement judged in several folds its tests from every shard, worst verdict first. */
function foldShards(parts: ConformanceReport[]): Map<string, QuotedResult> {
  const byId = new Map<string, QuotedResult>();
  for (const p of parts)
    for (const q of p.requirements) {
      const had = byId.get(q.id);
      if (!had) {
        byId.set(q.id, { ...q, tests: [...q.tests] });
        continue;
      }
      // A requirement no test judged in one shard (untested or not claimed there) adds nothing to the other's tests.
      const judged = (r: QuotedResult) =>
        r.verdict === 'untested' || r.tests.every((t) => t.title === '(no test ran)') ? [] : r.tests;
      const tests = [...judged(had), ...judged(q)];
      had.tests = tests.length ? tests : had.tests;
      had.verdict = tests.length ? requirementVerdict(tests) : had.verdict;
      const roots = [...new Set(tests.filter((t) => t.status === 'blocked').map((t) => t.blockedBy!))];
      if (had.verdict === 'blocked') had.blockedBy = roots;
      else delete had.blockedBy;
    }
  return byId;
}

/** Adds each requirement of the areas run that no shard judged, as a whole run would report it (untested, or not claimed). */
function addUnjudged(byId: Map<string, QuotedResult>, catalogue: Catalogue, profile: string): void {
  const areas = new Set([...byId.values()].map((q) => q.area));
  const claimed = new Set(loadProfile(profile).features);
  for (const r of catalogue.all)
    if (areas.has(r.area) && !byId.has(r.id)) {
      const res = toResult(r, []);
      const missing = r.features.filter((f) => !claimed.has(f));
      byId.set(
        r.id,
        missing.length
          ? {
              ...res,
              verdict: 'skipped',
              tests: [
                { title: '(no test ran)', file: '', status: 'skipped', message: `not claimed: ${missing.join(', ')}` },
              ],
              quote: r.quote,
              quoteFrom: r.quoteFrom,
            }
          : { ...res, quote: r.quote, quoteFrom: r.quoteFrom },
      );
    }
}

/** The shards' errors, and one more when they are not every shard of one run, each once. */
function shardErrors(parts: ConformanceReport[]): string[] {
  const errors = parts.flatMap((p) => p.errors ?? []);
  const shards = parts.map((p) => p.scope?.shard).filter((s) => !!s);
  const totalShards = shards[0]?.total;
  const complete =
    !!totalShards &&
    shards.length === totalShards &&
    new Set(shards.map((s) => s.current)).size === totalShards &&
    shards.every((s) => s.total === totalShards);
  if (!complete)
    errors.push(
      `the shards are not one whole run: got ${shards.map((s) => `${s.current}/${s.total}`).join(', ') || 'no shard'} of ${totalShards ?? '?'}`,
    );
  return errors;
}

/** Joins the shards' reports as one run's: every requirement's tests from every shard, folded again. */
export function mergeReports(parts: ConformanceReport[]): ConformanceReport {
  if (!parts.length) throw new Error('no shard reports to merge');
  const first = parts[0];
  for (const p of parts)
    if (p.target.profile !== first.target.profile || p.suite.commit !== first.suite.commit)
      throw new Error(
        `the shards do not belong to one run: profile ${p.target.profile} / commit ${p.suite.commit} beside ${first.target.profile} / ${first.suite.commit}`,
      );
  const accepted = new Set(parts.flatMap((p) => p.acceptedKinds ?? []));
  restoreDeferred(parts, accepted);
  const byId = foldShards(parts);
  const catalogue = loadCatalogue();
  addUnjudged(byId, catalogue, first.target.profile);
  // A shard kept a refusal whose control ran in another shard (unrunControls 'keep'): judged again
  // here, over every shard's verdicts, as the one run the shards make together would judge it.
  // Controls outside the shards' areas are kept, as a run of those areas keeps them.
  const partial = parts.some((p) => p.scope?.narrowed !== false || (p.scope?.projects ?? []).length > 0);
  blockUncontrolled([...byId.values()], catalogue.all, { unrunControls: partial ? 'keep' : 'block', accepted });
  const order = new Map(catalogue.all.map((r, i) => [r.id, i]));
  const requirements = [...byId.values()].sort((a, b) => (order.get(a.id) ?? 1e9) - (order.get(b.id) ?? 1e9));
  const errors = shardErrors(parts);
  const sum = (k: 'tests' | 'exchanges' | 'sumTestMs') => parts.reduce((n, p) => n + (p.run?.[k] ?? 0), 0);
  const longest = parts.reduce((a, p) => ((p.run?.longestTestMs ?? 0) > (a.run?.longestTestMs ?? 0) ? p : a), first);
  return {
    suite: first.suite,
    target: first.target,
    startedAt: parts.map((p) => p.startedAt).sort()[0],
    finishedAt: parts
      .map((p) => p.finishedAt)
      .sort()
      .at(-1)!,
    verdict: errors.length ? 'incomplete' : runVerdict(requirements),
    ...(errors.length ? { errors } : {}),
    totals: totalsOf(requirements),
    skips: skipsOf(requirements),
    run: {
      ...(longest.run ?? { wallMs: 0, longestTestMs: 0, longestTest: '' }),
      tests: sum('tests'),
      exchanges: sum('exchanges'),
      sumTestMs: sum('sumTestMs'),
    } as ConformanceReport['run'],
    acceptedKinds: [...accepted].sort(),
    scope: {
      narrowed: parts.some((p) => p.scope?.narrowed !== false),
      projects: [...new Set(parts.flatMap((p) => p.scope?.projects ?? []))],
      shard: null,
    },
    requirements,
  };
}

/** Each shard folder's conformance.json; a folder without one ends the merge (exit 2). */
function readShards(folders: string[]): ConformanceReport[] {
  return folders.map((f) => {
    const file = join(resolve(f), 'conformance.json');
    if (!existsSync(file)) {
      console.error(`merge: ${file} is missing: that shard wrote no verdict`);
      process.exit(2);
    }
    return JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport;
  });
}

/** JUnit: Playwright's merge of the shards' blob reports into <out>/junit.xml. */
function mergeJunit(folders: string[], out: string): void {
  const blobs = mkdtempSync(join(tmpdir(), 'obg-merge-'));
  try {
    folders.forEach((f, i) => {
      const dir = join(resolve(f), 'blob-report');
      if (existsSync(dir))
        for (const z of readdirSync(dir).filter((n) => n.endsWith('.zip')))
          cpSync(join(dir, z), join(blobs, `shard-${i + 1}-${z}`));
    });
    if (readdirSync(blobs).length) {
      const config = join(blobs, 'merge.config.mjs');
      writeFileSync(
        config,
        `export default { testDir: ${JSON.stringify(fromRoot('tests'))}, reporter: [['junit', { outputFile: ${JSON.stringify(join(out, 'junit.xml'))} }]] };\n`,
      );
      const cli = packageFile(fromRoot(), '@playwright/test', 'cli.js') ?? 'playwright';
      const m = spawnSync(process.execPath, [cli, 'merge-reports', '-c', config, blobs], {
        cwd: fromRoot(),
        encoding: 'utf8',
      });
      if (m.status !== 0) console.error(`merge: the blob reports could not be merged:\n${m.stderr || m.stdout}`);
    } else console.error('merge: no blob report in the shards: no junit.xml');
  } finally {
    rmSync(blobs, { recursive: true, force: true });
  }
}

/** The Allure report of every shard's results, copied into one folder first (their files are named by UUID). */
function mergeAllure(folders: string[], out: string): void {
  mkdirSync(join(out, 'allure-results'), { recursive: true });
  for (const f of folders)
    if (existsSync(join(resolve(f), 'allure-results')))
      cpSync(join(resolve(f), 'allure-results'), join(out, 'allure-results'), { recursive: true });
}

/** Builds <out>/allure-report from <out>/allure-results. */
function buildAllureReport(out: string): void {
  const allure = spawnSync(
    process.execPath,
    [
      packageFile(fromRoot(), 'allure', 'cli.js') ?? 'allure',
      'generate',
      join(out, 'allure-results'),
      '-c',
      fromRoot('allurerc.mjs'),
      '-o',
      join(out, 'allure-report'),
    ],
    { cwd: fromRoot(), encoding: 'utf8', env: { ...handedDown(), REPORTS_DIR: out } },
  );
  if (allure.status !== 0)
    console.error(`merge: the Allure report could not be built:\n${allure.stderr || allure.stdout}`);
  else makeOffline(join(out, 'allure-report'));
}

/** Prints the merged verdict, the summary and the baseline's judgement, and exits with the run's exit code. */
function sayAndExit(full: ConformanceReport, shards: number, summaryLine: string): never {
  for (const e of full.errors ?? []) console.error(`merge: ${e.split('\n')[0]}`);
  // The same last lines as a run's console (harness/reporter/console-summary.ts).
  console.log(`merge: ${shards} shards`);
  for (const line of verdictLines(full)) console.log(line);
  console.log(`summary: ${summaryLine}`);
  if (full.baseline) {
    for (const r of full.baseline.regressions)
      console.error(`baseline: regression: ${r.id} ${r.verdict} (not in the baseline)`);
    for (const e of full.baseline.expired) console.error(`baseline: expired: ${e.id} (expired ${e.expires})`);
    for (const p of full.baseline.problems) console.error(`baseline: ${p}`);
    for (const id of full.baseline.fixed) console.log(`baseline: fixed: remove it from the baseline: ${id}`);
    process.exit(full.baseline.exitCode);
  }
  process.exit(full.verdict === 'conformant' ? 0 : 1);
}

async function main() {
  const args = process.argv.slice(2);
  const outArg = args.find((a) => a.startsWith('--out='))?.slice(6);
  const folders = args.filter((a) => !a.startsWith('--out='));
  if (!folders.length) {
    console.error('usage: npm run merge -- <shard reports folder> <shard reports folder> ... [--out=<dir>]');
    process.exit(2);
  }
  const out = outArg ? resolve(outArg) : reportsDirOf();
  const parts = readShards(folders);
  const merged = mergeReports(parts);
  mkdirSync(out, { recursive: true });
  for (const part of ['allure-results', 'allure-report', 'conformance.json', 'conformance.md', 'junit.xml'])
    rmSync(join(out, part), { recursive: true, force: true });
  mergeAllure(folders, out);
  mergeJunit(folders, out);

  const { requirements, ...head } = merged;
  const full = { ...head, ...pastOfRun(merged, out), requirements };
  writeFileSync(join(out, 'conformance.json'), redactText(JSON.stringify(full, null, 2)));
  writeFileSync(join(out, 'conformance.md'), redactText(renderMarkdown(full)));
  // The merged Allure results and junit.xml say what the merged report says (harness/reporter/one-verdict.ts).
  const tests = foldedTests(full.requirements);
  foldAllureResults(join(out, 'allure-results'), tests, fromRoot('tests'), full.requirements);
  foldJunit(join(out, 'junit.xml'), tests);
  const summary = afterRun(full, out);
  buildAllureReport(out);
  sayAndExit(full, parts.length, summary.line);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(fromRoot('scripts', 'merge.ts'))) await main();
