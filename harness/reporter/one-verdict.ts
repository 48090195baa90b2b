import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fromRoot } from '../config/paths.js';
import { redactText } from '../evidence/redact.js';
import type { QuotedResult } from './report.js';
import type { TestVerdict } from './verdicts.js';

/*
 * One verdict everywhere: the fold (fold.ts) judges a test otherwise than Playwright did (a refusal
 * whose positive control failed is blocked, a failed SHOULD is a warning, a refusal whose control
 * was not judged is not judged), and the Allure results and junit.xml, written by their reporters
 * as each test ended, are rewritten after it to say the same. A blocked test is Allure's `skipped`
 * (its rule was not judged: neither passed nor failed, and Allure's red stays for what the bank
 * did wrong) with "[blocked by <root cause>]" first in its message and a `blockedBy` label, by
 * which the categories group it; a warning stays `failed` (Allure has no warning status) with
 * "[warning]" first and the label `verdict` = warning. Every rewritten result carries `verdict`.
 */

/** One test's verdict in the report, over all the requirements it names (the worst of them). */
export interface FoldedTest {
  status: TestVerdict;
  message: string;
  blockedBy?: string;
  requirements: string[];
}

/** Worst first, as a requirement's verdict takes its tests' (verdicts.ts). */
const WORST: TestVerdict[] = ['failed', 'broken', 'blocked', 'warning', 'passed', 'skipped'];

/** Allure's status of each test verdict of the report. */
export const ALLURE_STATUS: Record<TestVerdict, 'passed' | 'failed' | 'broken' | 'skipped'> = {
  passed: 'passed',
  failed: 'failed',
  warning: 'failed',
  broken: 'broken',
  blocked: 'skipped',
  skipped: 'skipped',
};

/** A test's key in the report: its file (from the suite's root) and its title path below the file. */
export const testKey = (file: string, title: string) => `${file}\u0000${title}`;

/** The report's verdict of each test that ran (the "(no test ran)" lines of requirements not claimed aside). */
export function foldedTests(requirements: Pick<QuotedResult, 'id' | 'tests'>[]): Map<string, FoldedTest> {
  const out = new Map<string, FoldedTest>();
  for (const r of requirements)
    for (const t of r.tests) {
      if (!t.file) continue;
      const key = testKey(t.file, t.title);
      const seen = out.get(key);
      if (!seen) {
        out.set(key, { status: t.status, message: t.message, blockedBy: t.blockedBy, requirements: [r.id] });
        continue;
      }
      seen.requirements.push(r.id);
      if (WORST.indexOf(t.status) < WORST.indexOf(seen.status))
        Object.assign(seen, { status: t.status, message: t.message, blockedBy: t.blockedBy });
    }
  return out;
}

/** The message Allure shows for a test the fold judged otherwise than Playwright. */
export function verdictMessage(t: FoldedTest): string {
  if (t.status === 'blocked')
    return redactText(t.message.startsWith('[blocked by ') ? t.message : `[blocked by ${t.blockedBy}] ${t.message}`);
  if (t.status === 'warning') return redactText(`[warning] a SHOULD not met (reported, not fatal): ${t.message}`);
  return redactText(t.message);
}

interface AllureLabel {
  name: string;
  value: string;
}
interface AllureResultFile {
  name?: string;
  fullName?: string;
  parameters?: { name: string; value: string; excluded?: boolean }[];
  descriptionHtml?: string;
  status?: string;
  statusDetails?: { message?: string; trace?: string };
  labels?: AllureLabel[];
}

/**
 * Allure's full name of a test of the report: its file from the run's root folder (Playwright's
 * rootDir, the tests' folder), then its titles (as allure-playwright names it).
 */
export const allureFullName = (rootDir: string, file: string, title: string) =>
  `${relative(rootDir, fromRoot(file)).split(sep).join('/')} › ${title}`;

/** What a rewrite of the results found: results rewritten, and results of no test of the report. */
export interface RewriteCount {
  rewritten: number;
  unmatched: number;
}

/**
 * Rewrites the Allure results (allure-results/*-result.json) to the report's verdict of each
 * test: status, message and the labels `verdict` and (blocked) `blockedBy`.
 */
export function foldAllureResults(
  resultsDir: string,
  tests: Map<string, FoldedTest>,
  rootDir: string,
  requirements: Described[] = [],
): RewriteCount {
  const count = { rewritten: 0, unmatched: 0 };
  if (!existsSync(resultsDir)) return count;
  const byName = new Map<string, FoldedTest & { title: string }>();
  for (const [key, t] of tests) {
    const [file, title] = key.split('\u0000');
    byName.set(allureFullName(rootDir, file, title), { ...t, title });
  }
  const byId = new Map(requirements.map((r) => [r.id, r]));
  for (const name of readdirSync(resultsDir).filter((n) => n.endsWith('-result.json'))) {
    const path = join(resultsDir, name);
    const r = JSON.parse(readFileSync(path, 'utf8')) as AllureResultFile;
    const t = r.fullName ? byName.get(r.fullName) : undefined;
    if (!t) {
      count.unmatched++;
      continue;
    }
    const labels = (r.labels ?? []).filter((l) => l.name !== 'verdict' && l.name !== 'blockedBy');
    labels.push({ name: 'verdict', value: t.status });
    if (t.status === 'blocked' && t.blockedBy) labels.push({ name: 'blockedBy', value: t.blockedBy });
    const status = ALLURE_STATUS[t.status];
    const changed = status !== r.status || t.status === 'warning' || t.status === 'blocked';
    const statusDetails = changed ? { ...r.statusDetails, message: verdictMessage(t) } : r.statusDetails;
    const shown = presentation(
      r,
      t.title,
      t.requirements.map((id) => byId.get(id)).filter((q) => !!q),
    );
    writeFileSync(path, JSON.stringify({ ...r, ...shown, status, statusDetails, labels }), 'utf8');
    count.rewritten++;
  }
  return count;
}

/** What a test's description shows of each requirement it names. */
export type Described = Pick<QuotedResult, 'id' | 'level' | 'section' | 'text' | 'quote' | 'quoteFrom'>;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A describe title naming a payment service and product (tests/payments: `bulk-payments/sepa-credit-transfers`). */
const SERVICE_PRODUCT = /^((?:bulk-|periodic-)?payments)\/([\w-]+)$/;

/**
 * A test told apart from the tests of the same title: the describes above it (its case: a payment
 * service and product, a kind of consent…) as Allure parameters and after its name; its
 * description: each requirement it names, with its level, section, the quoted sentence and a link
 * to its row in the specification map (specification.html, beside the one-file Allure report).
 */
function presentation(r: AllureResultFile, title: string, reqs: Described[]): Partial<AllureResultFile> {
  const describes = title.split(' › ').slice(0, -1);
  const parameters = (r.parameters ?? []).filter(
    (p) => !['payment service', 'payment product', 'case'].includes(p.name),
  );
  for (const d of describes) {
    const sp = SERVICE_PRODUCT.exec(d);
    if (sp) parameters.push({ name: 'payment service', value: sp[1] }, { name: 'payment product', value: sp[2] });
    else parameters.push({ name: 'case', value: d });
  }
  const base = (r.name ?? '').replace(/ \[[^\]]*\]$/, '');
  const name = describes.length ? `${base} [${describes.join(' › ')}]` : base;
  const descriptionHtml = reqs
    .map(
      (q) =>
        `<p><b>${q.level}</b> <code>${esc(q.id)}</code>: ${esc(q.text)}<br>${esc(q.section)}</p>` +
        (q.quote ? `<blockquote>${esc(q.quote)}</blockquote>` : '') +
        `<p><a href="specification.html#req-${esc(q.id)}">Its clause in the specification map</a></p>`,
    )
    .join('');
  return { name, parameters, ...(descriptionHtml ? { descriptionHtml: redactText(descriptionHtml) } : {}) };
}
