import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { collapseWhitespace, QUOTE_FILES, type Requirement } from '../catalogue/catalogue.js';
import { PARTLY_JUDGED_IN_RUN } from '../catalogue/resource-rules.js';
import { redactText } from '../evidence/redact.js';
import type { ConformanceReport } from './report.js';
import { markdownIt } from './spec-sentences.js';
import { coverageLine, mapSpecification, REASON_LABEL, type SpecMap, type UnitCoverage } from './specification.js';

/*
 * The specification map as HTML (reports/specification.html): the specification's text with each
 * normative clause marked judged, explained or neither, each requirement's verdict beside the
 * clauses it judges, and links to its tests in the Allure report. The coverage it draws is
 * specification.ts's.
 */

/** What the map reads of the run's report. */
export type MapReport = Pick<ConformanceReport, 'suite' | 'target' | 'verdict' | 'requirements'> &
  Partial<Pick<ConformanceReport, 'startedAt' | 'finishedAt'>>;

/** One test of a requirement in the Allure report. */
export interface AllureLink {
  name: string;
  status: string;
  /** The test result's id in the Allure 3 report: the MD5 of the result's uuid (as @allurereport/core makes it). */
  id: string;
}

/**
 * The tests of each requirement in the Allure results (allure-results/*-result.json): every result
 * whose `story` label is the requirement id (harness/req.ts labels each test so). The Allure 3
 * report names a test result by the MD5 of its uuid and opens it at `index.html#/<id>`.
 */
export function allureLinks(resultsDir: string): Map<string, AllureLink[]> {
  const out = new Map<string, AllureLink[]>();
  if (!existsSync(resultsDir)) return out;
  for (const f of readdirSync(resultsDir).filter((n) => n.endsWith('-result.json'))) {
    let r: { uuid?: string; name?: string; status?: string; labels?: { name: string; value: string }[] };
    try {
      r = JSON.parse(readFileSync(join(resultsDir, f), 'utf8'));
    } catch {
      continue;
    }
    if (!r.uuid) continue;
    const id = createHash('md5').update(r.uuid).digest('hex');
    // The report's verdict of the test where the results carry it (one-verdict.ts), else Allure's status.
    const status = r.labels?.find((l) => l.name === 'verdict')?.value ?? r.status ?? 'unknown';
    for (const l of r.labels ?? [])
      if (l.name === 'story') {
        if (!out.has(l.value)) out.set(l.value, []);
        out.get(l.value)!.push({ name: r.name ?? '(unnamed)', status, id });
      }
  }
  for (const list of out.values()) list.sort((a, b) => a.name.localeCompare(b.name));
  return out;
}

/** How a verdict is shown: the words of the report. */
export const VERDICT_LABEL: Record<string, string> = {
  passed: 'passed',
  failed: 'failed',
  warning: 'warning',
  blocked: 'blocked',
  broken: 'broken',
  skipped: 'not claimed',
  untested: 'untested',
  absent: 'not in this run',
};
const WORST = ['failed', 'broken', 'blocked', 'warning', 'untested', 'passed', 'skipped', 'absent'];

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const CSS = `
body{font:15px/1.55 system-ui,sans-serif;margin:0;color:#1d232b;background:#fafbfc}
main{max-width:1100px;margin:0 auto;padding:1.5rem 2rem 4rem}
header.map{background:#fff;border:1px solid #d8dde3;border-radius:8px;padding:1rem 1.5rem;margin-bottom:2rem}
h1,h2,h3{line-height:1.25}
code{background:#eef1f4;padding:0 .25em;border-radius:3px;font-size:.92em}
table{border-collapse:collapse;margin:1rem 0;font-size:.92em}
th,td{border:1px solid #d8dde3;padding:.3rem .5rem;vertical-align:top;text-align:left}
.u{border-radius:3px;padding:0 .1em}
.u[data-state=judged]{background:#e3f4e6}
.u[data-state=judged][data-verdict=failed],.u[data-state=judged][data-verdict=broken]{background:#fde2e1}
.u[data-state=judged][data-verdict=warning],.u[data-state=judged][data-verdict=blocked],.u[data-state=judged][data-verdict=untested]{background:#fff1cc}
.u[data-state=judged][data-verdict=skipped],.u[data-state=judged][data-verdict=absent]{background:#eceff3}
.u[data-state=explained]{background:#eef0ff;text-decoration:underline dotted #7a7fd1}
.u[data-state=open]{background:#ffd6e7;outline:2px dashed #c2185b}
tr.u td{background:inherit}
.reqs{font-size:.78em;white-space:normal}
a.req{display:inline-block;margin:0 .15em;padding:0 .35em;border-radius:9px;text-decoration:none;color:#fff;background:#5c6670}
a.req[data-verdict=passed]{background:#2e7d32}
a.req[data-verdict=failed],a.req[data-verdict=broken]{background:#c62828}
a.req[data-verdict=warning],a.req[data-verdict=blocked],a.req[data-verdict=untested]{background:#b26a00}
.why{font-size:.78em;color:#3f4590;font-style:italic}
.why[data-reason=not-yet-judged],.open{color:#c2185b;font-style:normal;font-weight:600}
.legend span{margin-right:1rem}
.req-list td:first-child{white-space:nowrap}
.tests{margin:0;padding-left:1.1rem}
.v-failed,.v-broken{color:#c62828;font-weight:600}.v-passed{color:#2e7d32}.v-warning,.v-blocked,.v-untested{color:#b26a00}
blockquote{margin:.3rem 0;padding-left:.7rem;border-left:3px solid #c5ccd4;color:#444}
`;

export interface MapOptions {
  /** The run's Allure results, for links to each requirement's tests; none: no links. */
  allureResults?: string;
  /**
   * Where the Allure report lies, relative to the map: the single-file report (default
   * `allure-report.html`, which opens from disk, as in the certification package) or a folder
   * (links go to its index.html, which needs a server).
   */
  allureReport?: string;
  /** The map of the specification (default: the catalogue's, the not-judged list's and the specification's). */
  map?: SpecMap;
}

type Md = ReturnType<typeof markdownIt>;

/** How a clause is marked in the map: its attributes, and the notes after it (its requirements' badges, or why it is not judged). */
interface Marking {
  verdictOf(id: string): string;
  attrs(c: UnitCoverage): Record<string, string> | undefined;
  notes(c: UnitCoverage): string;
}

const attrString = (a: Record<string, string>) =>
  Object.entries(a)
    .map(([k, v]) => ` ${k}="${esc(v)}"`)
    .join('');

/** A judged clause stating a rule for several resources, judged on some only: on which not, and why. */
const partlyNote = (c: UnitCoverage) =>
  (c.partly ?? [])
    .map(
      (p) =>
        ` <span class="why" data-partly="${esc(p.notOn.map((n) => n.resource).join(' '))}">partly judged (${esc(p.rule)}): not on ${esc(p.notOn.map((n) => `${n.resource}, because ${n.why}`).join('; '))}</span>`,
    )
    .join('');

/** The marking of clauses by the run's verdicts. */
function marking(report: MapReport): Marking {
  const verdicts = new Map(report.requirements.map((r) => [r.id, r]));
  const verdictOf = (id: string) => verdicts.get(id)?.verdict ?? 'absent';
  const badge = (r: Requirement) => {
    const v = verdictOf(r.id);
    return `<a class="req" href="#req-${esc(r.id)}" data-req="${esc(r.id)}" data-level="${r.level}" data-verdict="${v}" title="${esc(`${r.level}, ${VERDICT_LABEL[v]}: ${r.text}`)}">${esc(r.id)} · ${r.level} · ${esc(VERDICT_LABEL[v])}</a>`;
  };
  /** A requirement of the clause whose check saw only the reading the sentence does not describe, in some test. */
  const partlyInRun = (c: UnitCoverage) =>
    c.requirements
      .flatMap((r) =>
        (verdicts.get(r.id)?.tests ?? [])
          .filter((t) => t.status === 'skipped' && t.message.includes(PARTLY_JUDGED_IN_RUN))
          .slice(0, 1)
          .map(
            (t) =>
              ` <span class="why" data-partly-run="${esc(r.id)}">partly judged in this run (${esc(r.id)}): ${esc(t.message)}</span>`,
          ),
      )
      .join('');
  const stateOf = (c: UnitCoverage) =>
    !c.unit.markers.length && !c.requirements.length
      ? undefined
      : c.requirements.length
        ? 'judged'
        : c.notJudged && c.notJudged.reason !== 'not-yet-judged'
          ? 'explained'
          : 'open';
  /** The attributes of a marked clause: its state, markers, requirements, worst verdict and reason. */
  const attrs = (c: UnitCoverage): Record<string, string> | undefined => {
    const state = stateOf(c);
    if (!state) return undefined;
    const worst = WORST.find((v) => c.requirements.some((r) => verdictOf(r.id) === v));
    return {
      id: c.clause.id,
      'data-state': state,
      'data-markers': c.unit.markers.join('; '),
      ...(c.requirements.length ? { 'data-requirements': c.requirements.map((r) => r.id).join(' ') } : {}),
      ...(worst ? { 'data-verdict': worst } : {}),
      ...(c.notJudged ? { 'data-reason': c.notJudged.reason } : {}),
      title: c.unit.markers.length ? `normative: ${c.unit.markers.join('; ')}` : 'quoted by a requirement',
    };
  };
  const notes = (c: UnitCoverage) => {
    const state = stateOf(c);
    if (state === 'judged')
      return ` <span class="reqs">${c.requirements.map(badge).join('')}</span>${partlyNote(c)}${partlyInRun(c)}`;
    if (c.notJudged) {
      // "Not yet judged: <why>" says its reason itself.
      const label = REASON_LABEL[c.notJudged.reason];
      const why = c.notJudged.why.toLowerCase().startsWith(label) ? c.notJudged.why : `${label}: ${c.notJudged.why}`;
      return ` <span class="why" data-reason="${c.notJudged.reason}">not judged, ${esc(why)}</span>`;
    }
    if (state === 'open') return ` <span class="open">not judged, not explained</span>`;
    return '';
  };
  return { verdictOf, attrs, notes };
}

/** The specification's text as HTML, each clause marked. */
function markedSpecification(map: SpecMap, md: Md, mark: Marking): string {
  const { attrs, notes } = mark;
  const Token = new md.core.State('', md, {}).Token;
  const html = (content: string) => Object.assign(new Token('html_inline', '', 0), { content });
  /** Markdown cut at its clauses' words: each clause a marked span with its notes; the words between as they stand. */
  const byClause = (source: string, cs: UnitCoverage[]) => {
    let out = '';
    let from = 0;
    cs.forEach((c, k) => {
      const found = source.indexOf(c.clause.text, from);
      const at = k === 0 || found < 0 ? from : found;
      const after = k + 1 < cs.length ? source.indexOf(cs[k + 1].clause.text, at + 1) : -1;
      const next = after < 0 ? source.length : after;
      const a = attrs(c);
      const inner = md.renderInline(source.slice(at, next).trimEnd());
      out += `${a ? `<span class="u"${attrString(a)}>${inner}</span>${notes(c)}` : inner} `;
      from = next;
    });
    return out.trimEnd();
  };
  // Fresh tokens of the same text (the same placements): the map's own stay as parsed.
  const tokens = md.parse(map.spec.markdown, {});
  for (const p of map.spec.placements) {
    const t = tokens[p.token];
    if (t.type === 'tr_open') {
      const u = p.units[0];
      const cs = u.clauses.map((c) => map.units.get(c.id)!);
      let j = p.token;
      let last = -1;
      while (tokens[j].type !== 'tr_close') {
        if (tokens[j].type === 'inline') last = j;
        j++;
      }
      if (cs.length === 1) {
        // A row of one rule is marked whole.
        const a = attrs(cs[0]);
        if (!a) continue;
        t.attrJoin('class', 'u');
        for (const [k, v] of Object.entries(a)) t.attrSet(k, v);
        if (last >= 0) tokens[last].children = [...(tokens[last].children ?? []), html(notes(cs[0]))];
      } else if (last >= 0 && cs.some((c) => attrs(c))) {
        // A row of several: its id on the row, each clause marked in its last cell (the first holds the cells before).
        t.attrSet('id', u.id);
        t.attrJoin('class', 'clauses');
        tokens[last].children = [html(byClause(tokens[last].content, cs))];
      }
    } else {
      const parts = p.units.map((u) => {
        const cs = u.clauses.map((c) => map.units.get(c.id)!);
        if (cs.length > 1) return byClause(u.text, cs);
        const inner = md.renderInline(u.text);
        const a = attrs(cs[0]);
        return a ? `<span class="u"${attrString(a)}>${inner}</span>${notes(cs[0])}` : inner;
      });
      t.children = [html(parts.join(' '))];
    }
  }
  return md.renderer.render(tokens, md.options, {});
}

/** A row per requirement: its verdict, rule, where its quote stands, and its tests (in the Allure report where given). */
function requirementRows(map: SpecMap, report: MapReport, md: Md, mark: Marking, options: MapOptions): string[] {
  const verdicts = new Map(report.requirements.map((r) => [r.id, r]));
  const links = options.allureResults ? allureLinks(options.allureResults) : new Map<string, AllureLink[]>();
  // The one-file report opens from disk; the folder's needs a server (over file:// it fails to fetch its data).
  const where = options.allureReport ?? 'allure-report.html';
  const allure = where.endsWith('.html') ? where : `${where}/index.html`;
  const quotedAt = new Map<string, string[]>();
  for (const c of map.units.values())
    for (const r of c.requirements) quotedAt.set(r.id, [...(quotedAt.get(r.id) ?? []), c.clause.id]);
  return map.requirements.map((r) => {
    const v = mark.verdictOf(r.id);
    const at = quotedAt.get(r.id) ?? [];
    const tests = links.get(r.id) ?? [];
    const place =
      r.quoteFrom === 'spec'
        ? at.map((id) => `<a href="#${id}">${id}</a>`).join(' ') || '(the quote judges no clause)'
        : `${esc(QUOTE_FILES[r.quoteFrom ?? 'reference-facts'])}:<blockquote>${md.renderInline(collapseWhitespace(r.quote ?? ''))}</blockquote>`;
    const testList = tests.length
      ? `<ul class="tests">${tests.map((t) => `<li><a href="${esc(allure)}#/${t.id}" data-allure="${t.id}">${esc(t.name)}</a> (${esc(t.status)})</li>`).join('')}</ul>`
      : (verdicts.get(r.id)?.tests ?? []).map((t) => esc(`${t.title} (${t.status})`)).join('<br>');
    return `<tr id="req-${esc(r.id)}" data-req="${esc(r.id)}" data-verdict="${v}"><td><code>${esc(r.id)}</code></td><td>${r.level}</td><td class="v-${v}">${esc(VERDICT_LABEL[v])}</td><td>${esc(r.text)}</td><td>${place}</td><td>${testList}</td></tr>`;
  });
}

/** specification.html: the specification with every normative sentence marked (self-contained, no script). */
export function renderSpecificationMap(report: MapReport, options: MapOptions = {}): string {
  const map = options.map ?? mapSpecification();
  const { spec, coverage } = map;
  const md = markdownIt();
  const mark = marking(report);
  const body = markedSpecification(map, md, mark);
  const rows = requirementRows(map, report, md, mark, options);
  const areaRows = Object.entries(coverage.byArea)
    .map(
      ([a, v]) =>
        `<tr><td>${esc(a)}</td><td>${v.normative}</td><td>${v.judged}</td><td>${v.explained}</td><td>${v.notExplained}</td></tr>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Specification map: ${esc(report.verdict)}</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>${CSS}</style></head>
<body><main>
<header class="map" id="map-summary" data-normative="${coverage.normative}" data-judged="${coverage.judged}" data-explained="${coverage.explained}" data-not-explained="${coverage.notExplained.length}">
<h1>Specification map: ${esc(report.verdict)}</h1>
<p>Target ${esc(report.target.baseUrl)}${report.target.embedded ? ' (embedded reference sandbox)' : ''}, profile <code>${esc(report.target.profile)}</code>; suite ${esc(report.suite.name)} ${esc(report.suite.version)} (${esc(report.suite.commit.slice(0, 12))}); specification SHA-256 <code>${esc(report.suite.specSha256)}</code>${report.finishedAt ? `; run ended ${esc(report.finishedAt)}` : ''}.</p>
<p><strong>${esc(coverageLine(coverage).replace(/^specification: /, ''))}</strong>.</p>
<table><thead><tr><th>Area</th><th>Normative</th><th>Judged</th><th>Explained</th><th>Neither</th></tr></thead><tbody>${areaRows}</tbody></table>
${
  coverage.notExplained.length
    ? `<p>Normative clauses neither judged nor explained:</p><ul id="not-explained">${coverage.notExplained.map((n) => `<li><a href="#${n.id}">${esc(n.section)}</a>: ${n.clause ? `${md.renderInline(collapseWhitespace(n.clause))}, in: ` : ''}${md.renderInline(collapseWhitespace(n.sentence))}</li>`).join('')}</ul>`
    : ''
}
<p class="legend"><span class="u" data-state="judged" data-verdict="passed">judged, passed</span> <span class="u" data-state="judged" data-verdict="failed">judged, failed or broken</span> <span class="u" data-state="judged" data-verdict="warning">warning, blocked or untested</span> <span class="u" data-state="judged" data-verdict="skipped">not claimed</span> <span class="u" data-state="explained">not judged, explained</span> <span class="u" data-state="open">not judged, not explained</span></p>
<p>A normative sentence or table row carries one of these: ${esc([...new Set(spec.units.flatMap((u) => u.markers))].join('; '))}. One that holds several rules is cut into its clauses (a row's last cell at its sentences and at "; ", a sentence at "; " where each part states a rule, and the clauses listed in spec/clauses.yaml), each judged or explained on its own. Each requirement's quote marks the clause it touches, or, when it takes several, those spec/clauses.yaml names it for; the badges after a clause give each requirement's level and verdict, and lead to its tests below.</p>
</header>
<article id="specification">
${body}
</article>
<section id="requirements"><h2>Requirements</h2>
<table class="req-list"><thead><tr><th>Requirement</th><th>Level</th><th>Verdict</th><th>Rule</th><th>Quoted at</th><th>Tests (Allure report)</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table></section>
</main></body></html>
`;
}

/**
 * Writes the specification map of a run (see renderSpecificationMap) to `file`, secrets redacted.
 * For the certification package: `writeSpecificationMap(report, '<package>/specification.html',
 * { allureResults, allureReport })`.
 */
export function writeSpecificationMap(report: MapReport, file: string, options: MapOptions = {}): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, redactText(renderSpecificationMap(report, options)));
}
