import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { posix } from 'node:path';
import type { FoldedTest } from './one-verdict.js';
import { verdictMessage } from './one-verdict.js';

/*
 * junit.xml (Playwright's JUnit reporter) after the fold, as the Allure results (one-verdict.ts):
 * a blocked test or one the fold did not judge is <skipped message="…"> (its failure, if any,
 * removed), a warning keeps its <failure> with "[warning]" first in the message; the counts of
 * each <testsuite> and of <testsuites> are counted again.
 */

const attr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/\n/g, '&#10;');
const unattr = (s: string) =>
  s
    .replace(/&#(\d+);/g, (_e, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_e, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&apos;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&gt;/g, '>')
    .replace(/&lt;/g, '<')
    .replace(/&amp;/g, '&');
const attrOf = (attrs: string, name: string) => {
  const m = new RegExp(`\\b${name}="([^"]*)"`).exec(attrs);
  return m ? unattr(m[1]) : undefined;
};

/**
 * Playwright's JUnit names a test by its file suite (the file from its project's test folder) and
 * its titles; a whole run's one project reads tests/, an area's project tests/<area>/ (playwright.config.ts).
 */
function byJunitName(tests: Map<string, FoldedTest>): Map<string, FoldedTest> {
  const out = new Map<string, FoldedTest>();
  for (const [key, t] of tests) {
    const [file, title] = key.split('\u0000');
    const underTests = posix.relative('tests', file.split('\\').join('/'));
    out.set(`${underTests}\u0000${title}`, t);
    const area = underTests.split('/')[0];
    out.set(`${area}:${underTests.slice(area.length + 1)}\u0000${title}`, t);
  }
  return out;
}

const FAILURE = /<(failure|error)\b[^>]*?(?:\/>|>[\s\S]*?<\/\1>)\n?/;

/** One <testcase> after the fold, and how it counts: failure, error, skipped or none. */
function rewriteCase(head: string, body: string, t: FoldedTest | undefined): { xml: string; kind?: string } {
  let inner = body;
  if (t && (t.status === 'blocked' || t.status === 'skipped') && !/<skipped\b/.test(inner)) {
    inner = inner.replace(FAILURE, '');
    const skipped = `<skipped message="${attr(verdictMessage(t).slice(0, 2000))}">\n</skipped>\n`;
    const at = inner.search(/<system-(out|err)>/);
    inner = at < 0 ? `${inner}${skipped}` : `${inner.slice(0, at)}${skipped}${inner.slice(at)}`;
  } else if (t?.status === 'warning')
    inner = inner.replace(
      /<(failure|error) message="([^"]*)"/,
      (_, el: string, m: string) => `<${el} message="${attr(`[warning] ${unattr(m)}`)}"`,
    );
  const kind = /<skipped\b/.test(inner)
    ? 'skipped'
    : /<failure\b/.test(inner)
      ? 'failure'
      : /<error\b/.test(inner)
        ? 'error'
        : undefined;
  return { xml: `<testcase${head}>${inner}</testcase>`, kind };
}

/** Rewrites junit.xml to the report's verdicts; the number of test cases rewritten (-1: no file). */
export function foldJunit(file: string, tests: Map<string, FoldedTest>): number {
  if (!existsSync(file)) return -1;
  const byName = byJunitName(tests);
  const total = { tests: 0, failures: 0, skipped: 0, errors: 0 };
  let rewritten = 0;
  const xml = readFileSync(file, 'utf8').replace(
    /<testsuite\b([^>]*)>([\s\S]*?)<\/testsuite>/g,
    (_s, suiteHead: string, suiteBody: string) => {
      const project = attrOf(suiteHead, 'hostname') ?? '';
      const count = { tests: 0, failures: 0, skipped: 0, errors: 0 };
      const body = suiteBody.replace(
        /<testcase\b([^>]*)>([\s\S]*?)<\/testcase>/g,
        (_c, head: string, inner: string) => {
          const name = `${attrOf(head, 'classname')}\u0000${attrOf(head, 'name')}`;
          const t = byName.get(name) ?? byName.get(`${project}:${name}`);
          if (t) rewritten++;
          const out = rewriteCase(head, inner, t);
          count.tests++;
          if (out.kind === 'skipped') count.skipped++;
          if (out.kind === 'failure') count.failures++;
          if (out.kind === 'error') count.errors++;
          return out.xml;
        },
      );
      for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += count[k];
      const head = suiteHead.replace(
        /\b(tests|failures|skipped|errors)="\d+"/g,
        (_a, k: keyof typeof count) => `${k}="${count[k]}"`,
      );
      return `<testsuite${head}>${body}</testsuite>`;
    },
  );
  const top = xml.replace(/<testsuites\b([^>]*)>/, (_t, head: string) =>
    head
      ? `<testsuites${head.replace(/\b(tests|failures|skipped|errors)="\d+"/g, (_a, k: keyof typeof total) => `${k}="${total[k]}"`)}>`
      : '<testsuites>',
  );
  writeFileSync(file, top, 'utf8');
  return rewritten;
}
