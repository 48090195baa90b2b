import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import type { Requirement } from '../../harness/catalogue/catalogue.js';
import { loadCatalogue } from '../../harness/catalogue/catalogue.js';
import type { QuotedResult } from '../../harness/reporter/report.js';
import { clausePieces, readSpec, sentencesOf, unitsQuoted } from '../../harness/reporter/spec-sentences.js';
import {
  coverageLine,
  coverageMarkdown,
  loadClauseLists,
  loadNotJudged,
  mapSpecification,
  type ClauseList,
  type NotJudged,
} from '../../harness/reporter/specification.js';
import { renderSpecificationMap, type MapReport } from '../../harness/reporter/specification-html.js';

/**
 * The specification's normative clauses neither judged by a requirement nor explained in
 * requirements/not-judged.yaml ("not yet judged" counts as not explained). It reached 0: every
 * normative clause is judged or explained, and a new one (or a "not yet judged" entry) fails.
 */
const NOT_EXPLAINED_AT_MOST = 0;

const SPEC = `# Fixture

Intro text. Field names are case-sensitive. Other fields: not shown.

Text fields must support at least these characters: a-z, and \`/ - ? : ( ) . , ' +\`. The next one
spans two lines.

| Field | Type | Required | Rule |
|---|---|---|---|
| access | object | yes | requested access |
| note | | no | free words |

## Limits

| Limit | Applies to | Value |
|---|---|---|
| frequencyPerDay | consent | at least 1 |
`;

const req = (id: string, quote: string, area = 'fixture'): Requirement => ({
  id,
  level: 'MUST',
  section: 'fixture',
  features: [],
  text: `the rule ${id}`,
  quote,
  quoteFrom: 'spec',
  area,
});

test('the sentence finder cuts paragraphs into sentences and never inside a code span', () => {
  expect(sentencesOf('One thing. Another `a . b` thing. Last.')).toEqual([
    'One thing.',
    'Another `a . b` thing.',
    'Last.',
  ]);
  expect(sentencesOf("Text must hold `/ - ? : ( ) . , ' +`. Next.")).toEqual([
    "Text must hold `/ - ? : ( ) . , ' +`.",
    'Next.',
  ]);
});

test('units: sentences of paragraphs and table body rows, with their normative markers; headings are not units', () => {
  const spec = readSpec(SPEC);
  const byText = new Map(spec.units.map((u) => [u.text, u]));
  expect(spec.units.map((u) => u.text)).toEqual([
    'Intro text.',
    'Field names are case-sensitive.',
    'Other fields: not shown.',
    "Text fields must support at least these characters: a-z, and `/ - ? : ( ) . , ' +`.",
    'The next one\nspans two lines.',
    '| access | object | yes | requested access |',
    '| note | | no | free words |',
    '| frequencyPerDay | consent | at least 1 |',
  ]);
  expect(byText.get('Intro text.')!.markers).toEqual([]);
  // A clause saying the specification is silent states nothing.
  expect(byText.get('Other fields: not shown.')!.markers).toEqual([]);
  expect(byText.get('Field names are case-sensitive.')!.markers).toEqual(['a stated restriction']);
  expect(byText.get('| access | object | yes | requested access |')!.markers).toEqual(
    expect.arrayContaining(['a field marked "yes" in the Required column', 'a stated type (the Type column)']),
  );
  expect(byText.get('| note | | no | free words |')!.markers).toEqual([]);
  expect(byText.get('| frequencyPerDay | consent | at least 1 |')!.markers).toContain('a row of the Limits table');
  expect(spec.units.find((u) => u.text.startsWith('The next'))!.section).toBe('Fixture');
  expect(byText.get('| frequencyPerDay | consent | at least 1 |')!.section).toBe('Limits');
});

test('a quote marks every unit it touches, matched up to whitespace; a unit may hold several quotes', () => {
  const spec = readSpec(SPEC);
  const texts = (q: string) => unitsQuoted(spec, q).map((u) => u.text);
  // Across two sentences, with the line break of the source as a plain space.
  expect(texts('case-sensitive. Other fields')).toEqual([
    'Field names are case-sensitive.',
    'Other fields: not shown.',
  ]);
  expect(texts('The next one spans')).toEqual(['The next one\nspans two lines.']);
  // Two quotes of one sentence both mark it.
  expect(texts('Field names')).toEqual(['Field names are case-sensitive.']);
  expect(texts('are case-sensitive')).toEqual(['Field names are case-sensitive.']);
  // A table row, as it stands.
  expect(texts('| access | object | yes |')).toEqual(['| access | object | yes | requested access |']);
  expect(texts('no such words')).toEqual([]);
});

test('the coverage counts judged, explained and neither; "not yet judged" is not explained; a stale entry only reports', () => {
  const catalogue = {
    all: [
      req('fixture.a.case', 'Field names are case-sensitive.', 'headers'),
      req('fixture.b.access', '| access | object | yes | requested access |', 'consents'),
      req('fixture.c.both', '| access | object | yes |', 'headers'),
    ],
  };
  const notJudged: NotJudged[] = [
    // Explained.
    {
      sentence: '| frequencyPerDay | consent | at least 1 |',
      reason: 'client-side',
      why: 'the reason in words',
      area: 'consents',
    },
    // Not yet judged: counts as not explained.
    {
      sentence: "Text fields must support at least these characters: a-z, and `/ - ? : ( ) . , ' +`.",
      reason: 'not-yet-judged',
      why: 'not yet judged: no check sends them',
      area: 'payments',
    },
    // Quoted by a requirement as well: the quote wins, the entry is stale.
    { sentence: 'Field names   are case-sensitive.', reason: 'no-rule', why: 'an old reason here', area: 'headers' },
    // No such sentence.
    {
      sentence: 'Words the specification does not hold.',
      reason: 'no-rule',
      why: 'a reason for nothing',
      area: 'headers',
    },
  ];
  const { coverage: c } = mapSpecification(catalogue, notJudged, SPEC, []);
  expect(c.normative).toBe(4);
  expect(c.judged).toBe(2);
  expect(c.explained).toBe(1);
  expect(c.notExplained.map((n) => n.sentence)).toEqual([
    "Text fields must support at least these characters: a-z, and `/ - ? : ( ) . , ' +`.",
  ]);
  expect(c.judgedPercent).toBe(50);
  expect(c.judgedOrExplainedPercent).toBe(75);
  expect(c.stale).toEqual([expect.stringContaining('Field names are case-sensitive. (judged by fixture.a.case)')]);
  expect(c.unknown).toEqual([expect.stringContaining('Words the specification does not hold.')]);
  // A sentence counts for the areas of the requirements quoting it (the row: consents and headers).
  expect(c.byArea).toEqual({
    consents: { normative: 2, judged: 1, explained: 1, notExplained: 0 },
    headers: { normative: 2, judged: 2, explained: 0, notExplained: 0 },
    payments: { normative: 1, judged: 0, explained: 0, notExplained: 1 },
  });
  expect(coverageLine(c)).toBe(
    'specification: 2 of 4 normative clauses judged (50 %), 1 explained, 1 neither: 75 % judged or explained',
  );
});

test('the not-judged list is well formed and names sentences of the specification', () => {
  const entries = loadNotJudged();
  expect(entries.length).toBeGreaterThan(0);
  const { coverage } = mapSpecification();
  expect(
    coverage.unknown,
    'entries of requirements/not-judged.yaml or spec/clauses.yaml that match no normative sentence, clause or quote',
  ).toEqual([]);
  expect(loadClauseLists().length).toBeGreaterThan(0);
  // Sentences quoted since they were listed: the quote wins; the entry can go (reported, never failing).
  if (coverage.stale.length)
    test.info().annotations.push({
      type: 'stale not-judged entries',
      description: coverage.stale.join('\n'),
    });
});

test(`every normative clause of the specification is judged or explained (${NOT_EXPLAINED_AT_MOST} may be neither)`, () => {
  const { coverage } = mapSpecification();
  test.info().annotations.push({ type: 'coverage', description: coverageLine(coverage) });
  const said = (n: (typeof coverage.notExplained)[number]) =>
    `${n.section}: ${n.clause ? `[${n.clause}] of ` : ''}${n.sentence}`;
  const open = coverage.notExplained.map((n) => `${said(n)}${n.why ? ` (${n.why})` : ''}`);
  expect(
    open.length,
    `normative clauses neither judged by a requirement nor explained in requirements/not-judged.yaml:\n${open.join('\n')}`,
  ).toBeLessThanOrEqual(NOT_EXPLAINED_AT_MOST);
  // Absent from the list altogether: every clause no requirement judges must at least be listed.
  expect(
    coverage.notExplained.filter((n) => !n.why).map(said),
    'normative clauses no requirement judges and requirements/not-judged.yaml does not list',
  ).toEqual([]);
  // A quote that takes several clauses of a row judges only those spec/clauses.yaml names it for.
  expect(coverage.unattributed, 'requirements quoting several clauses of a unit, named for none').toEqual([]);
});

test('the two clauses hidden in judged rows are each judged or explained on their own', () => {
  const map = mapSpecification();
  const clause = (words: string) => {
    const found = [...map.units.values()].filter((c) => c.unit.clauses.length > 1 && c.clause.text === words);
    expect(found, `the clause "${words}"`).toHaveLength(1);
    return found[0];
  };
  // The dateFrom row: booked entries by booking date, pending ones by entry date: each its own clause.
  const pendingDate = clause('pending entries the entry date');
  expect(pendingDate.requirements.map((r) => r.id)).toEqual(['accounts.transactions.pending-entry-date']);
  expect(clause('Booked entries use the booking date').requirements.map((r) => r.id)).toContain(
    'accounts.transactions.date-range',
  );
  expect(clause('Booked entries use the booking date').requirements.map((r) => r.id)).not.toContain(
    'accounts.transactions.pending-entry-date',
  );
  // The PSU-ID row: a rule for what the TPP sends; explained, with its reason.
  const omitted = clause('PSU-ID is omitted after OAuth2-based authentication or SCA in the same session');
  expect(omitted.requirements).toEqual([]);
  expect(omitted.notJudged?.reason).toBe('client-side');
  // Its neighbour is judged by the requirement that quotes it alone.
  expect(clause('PSU-Corporate-ID only in a corporate context').requirements.map((r) => r.id)).toEqual([
    'headers.psu-corporate-id.context',
  ]);
});

const CLAUSED = `# Fixture

A bank must answer; a TPP must ask. Values must be typed; they are described here.

| Parameter | Type | Rule |
|---|---|---|
| from | date | inclusive; required. Booked by booking date, pending by entry date. Others: not shown |
| code | string | one of \`a; b\` or \`c\` (as said; see below) |
`;

test("the splitting rule: a row's last cell at sentences and at semicolons, a sentence at semicolons where each part states a rule", () => {
  // A row: every piece of its last cell; a code span and a parenthesis are never cut; silence is no clause.
  expect(
    clausePieces(
      'row',
      '| from | date | inclusive; required. Booked by booking date, pending by entry date. Others: not shown |',
    ),
  ).toEqual(['inclusive', 'required', 'Booked by booking date, pending by entry date']);
  expect(clausePieces('row', '| code | string | one of `a; b` or `c` (as said; see below) |')).toEqual([]);
  // A sentence: cut only where each part carries a normative marker of its own.
  expect(clausePieces('sentence', 'A bank must answer; a TPP must ask.')).toEqual([
    'A bank must answer',
    'a TPP must ask.',
  ]);
  expect(clausePieces('sentence', 'Values must be typed; they are described here.')).toEqual([]);
  // An explicit list replaces the pieces.
  expect(clausePieces('row', '| from | date | x; y |', ['x', 'y'])).toEqual(['x', 'y']);
  const spec = readSpec(CLAUSED);
  const row = spec.units.find((u) => u.text.startsWith('| from'))!;
  expect(row.clauses.map((c) => [c.id, c.text])).toEqual([
    [`${row.id}-1`, 'inclusive'],
    [`${row.id}-2`, 'required'],
    [`${row.id}-3`, 'Booked by booking date, pending by entry date'],
  ]);
  // The clauses cover the row: the first from its start (its name and type), the last to its end.
  expect(row.clauses[0].start).toBe(row.start);
  expect(row.clauses[2].end).toBe(row.end);
  expect(row.clauses[1].start).toBe(row.clauses[0].end);
  // A unit of one rule is its own clause, under its own id.
  const code = spec.units.find((u) => u.text.startsWith('| code'))!;
  expect(code.clauses).toEqual([{ id: code.id, text: code.text, start: code.start, end: code.end }]);
});

test('coverage by clause: a quote of one clause judges it; a whole-row quote judges the clauses named for it, else none', () => {
  const row = '| from | date | inclusive; required. Booked by booking date, pending by entry date. Others: not shown |';
  const catalogue = {
    all: [
      // Touches one clause alone: judges it.
      req('fixture.a.ask', 'a TPP must ask', 'headers'),
      // The whole row, named for two of its clauses (after the explicit split below).
      req('fixture.b.booked', row, 'accounts'),
      // The whole row, named for none: judges none, and is listed.
      req('fixture.c.loose', row, 'accounts'),
    ],
  };
  const clauses: ClauseList[] = [
    {
      unit: row,
      clauses: [
        { text: 'inclusive', judgedBy: ['fixture.b.booked'] },
        { text: 'required' },
        { text: 'Booked by booking date', judgedBy: ['fixture.b.booked'] },
        { text: 'pending by entry date', judgedBy: ['fixture.d.gone'] },
      ],
    },
  ];
  const notJudged: NotJudged[] = [
    // One clause explained on its own.
    { sentence: row, clause: 'required', reason: 'permissive', why: 'a reason for this clause', area: 'accounts' },
    // A clause that is not one: reported.
    { sentence: row, clause: 'no such words', reason: 'no-rule', why: 'a reason for nothing', area: 'accounts' },
  ];
  const map = mapSpecification(catalogue, notJudged, CLAUSED, clauses);
  const { coverage: c } = map;
  const state = (words: string) => {
    const u = [...map.units.values()].find((x) => x.clause.text === words)!;
    return u.requirements.map((r) => r.id).join(' ') || u.notJudged?.reason || 'open';
  };
  expect(state('inclusive')).toBe('fixture.b.booked');
  expect(state('required')).toBe('permissive');
  expect(state('Booked by booking date')).toBe('fixture.b.booked');
  expect(state('pending by entry date')).toBe('open');
  expect(state('a TPP must ask.')).toBe('fixture.a.ask');
  expect(state('A bank must answer')).toBe('open');
  expect(c.unattributed).toEqual([expect.stringContaining('fixture.c.loose quotes 4 clauses of')]);
  expect(c.unknown).toEqual([expect.stringContaining('[no such words] (no such clause')]);
  // A name whose requirement does not quote the row judges nothing: reported as stale, never failing.
  expect(c.stale).toEqual([expect.stringContaining('fixture.d.gone is named at')]);
  // The figure counts clauses: 4 of the first row, 1 of the second, 2 of the first sentence, 1 of the second.
  expect(c.normative).toBe(8);
  expect(c.judged).toBe(3);
  expect(c.explained).toBe(1);
  expect(c.notExplained.find((n) => n.clause === 'pending by entry date')).toMatchObject({ sentence: row });
  expect(coverageMarkdown(c).join('\n')).toContain('`` pending by entry date `` in `` ' + row + ' ``');
  // The map marks each clause of the row in its last cell, with its state and its badges or reason.
  const html = renderSpecificationMap(
    {
      suite: { name: 'obg-conformance', version: '0', commit: 'c0ffee', specSha256: 'ab'.repeat(32) },
      target: { baseUrl: 'http://127.0.0.1:1', profile: 'reference', embedded: true },
      verdict: 'conformant',
      requirements: [],
    },
    { map },
  );
  const rowId = map.spec.units.find((u) => u.text === row)!.id;
  expect(html).toContain(`<tr id="${rowId}" class="clauses">`);
  expect(html).toMatch(
    new RegExp(`<span class="u" id="${rowId}-1" data-state="judged"[^>]*data-requirements="fixture.b.booked"`),
  );
  expect(html).toMatch(new RegExp(`<span class="u" id="${rowId}-2" data-state="explained"`));
  expect(html).toMatch(
    new RegExp(
      `<span class="u" id="${rowId}-4" data-state="open"[^>]*>pending by entry date\\. Others: not shown</span>`,
    ),
  );
  // One mark per open clause in the specification's text (the legend above it has its own).
  const article = html.split('<article id="specification">')[1].split('</article>')[0];
  expect(article.match(/data-state="open"/g)?.length).toBe(c.notExplained.length);
});

test('the map names every requirement, marks each quoted sentence with its verdict, and links each test', () => {
  const catalogue = loadCatalogue();
  const first = catalogue.all.find((r) => r.quoteFrom === 'spec')!;
  const report: MapReport = {
    suite: { name: 'obg-conformance', version: '0', commit: 'c0ffee', specSha256: 'ab'.repeat(32) },
    target: { baseUrl: 'http://127.0.0.1:1', profile: 'reference', embedded: true },
    verdict: 'not-conformant',
    requirements: catalogue.all.map((r): QuotedResult => ({
      id: r.id,
      level: r.level,
      area: r.area,
      section: r.section,
      text: r.text,
      verdict: r.id === first.id ? 'failed' : 'passed',
      tests: [],
      quote: r.quote,
      quoteFrom: r.quoteFrom,
    })),
  };
  const html = renderSpecificationMap(report);
  for (const r of catalogue.all) expect(html).toContain(`id="req-${r.id}"`);
  expect(html).toContain(`data-req="${first.id}" data-level="MUST" data-verdict="failed"`);
  expect(html).not.toMatch(/<script|<link |src="http/);
});
