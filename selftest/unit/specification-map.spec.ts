import { expect, test } from '@playwright/test';
import type { Requirement } from '../../harness/catalogue.js';
import { loadCatalogue } from '../../harness/catalogue.js';
import type { QuotedResult } from '../../harness/reporter/conformance.js';
import { readSpec, sentencesOf, unitsQuoted } from '../../harness/reporter/spec-sentences.js';
import {
  coverageLine,
  loadNotJudged,
  mapSpecification,
  renderSpecificationMap,
  type MapReport,
  type NotJudged,
} from '../../harness/reporter/specification.js';

/**
 * The specification's normative sentences neither quoted by a requirement nor explained in
 * requirements/not-judged.yaml ("not yet judged" counts as not explained). It reached 0: every
 * normative sentence is judged or explained, and a new one (or a "not yet judged" entry) fails.
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
  const { coverage: c } = mapSpecification(catalogue, notJudged, SPEC);
  expect(c.normative).toBe(4);
  expect(c.judged).toBe(2);
  expect(c.explained).toBe(1);
  expect(c.notExplained.map((n) => n.sentence)).toEqual([
    "Text fields must support at least these characters: a-z, and `/ - ? : ( ) . , ' +`.",
  ]);
  expect(c.judgedPercent).toBe(50);
  expect(c.judgedOrExplainedPercent).toBe(75);
  expect(c.stale).toEqual([expect.stringContaining('Field names are case-sensitive. (quoted by fixture.a.case)')]);
  expect(c.unknown).toEqual([expect.stringContaining('Words the specification does not hold.')]);
  // A sentence counts for the areas of the requirements quoting it (the row: consents and headers).
  expect(c.byArea).toEqual({
    consents: { normative: 2, judged: 1, explained: 1, notExplained: 0 },
    headers: { normative: 2, judged: 2, explained: 0, notExplained: 0 },
    payments: { normative: 1, judged: 0, explained: 0, notExplained: 1 },
  });
  expect(coverageLine(c)).toBe(
    'specification: 2 of 4 normative sentences judged (50 %), 1 explained, 1 neither: 75 % judged or explained',
  );
});

test('the not-judged list is well formed and names sentences of the specification', () => {
  const entries = loadNotJudged();
  expect(entries.length).toBeGreaterThan(0);
  const { coverage } = mapSpecification();
  expect(coverage.unknown, 'entries of requirements/not-judged.yaml that match no normative sentence').toEqual([]);
  // Sentences quoted since they were listed: the quote wins; the entry can go (reported, never failing).
  if (coverage.stale.length)
    test.info().annotations.push({
      type: 'stale not-judged entries',
      description: coverage.stale.join('\n'),
    });
});

test(`every normative sentence of the specification is quoted or explained (${NOT_EXPLAINED_AT_MOST} may be neither)`, () => {
  const { coverage } = mapSpecification();
  test.info().annotations.push({ type: 'coverage', description: coverageLine(coverage) });
  const open = coverage.notExplained.map((n) => `${n.section}: ${n.sentence}${n.why ? ` (${n.why})` : ''}`);
  expect(
    open.length,
    `normative sentences neither quoted by a requirement nor explained in requirements/not-judged.yaml:\n${open.join('\n')}`,
  ).toBeLessThanOrEqual(NOT_EXPLAINED_AT_MOST);
  // Absent from the list altogether: every sentence no requirement quotes must at least be listed.
  expect(
    coverage.notExplained.filter((n) => !n.why).map((n) => `${n.section}: ${n.sentence}`),
    'normative sentences no requirement quotes and requirements/not-judged.yaml does not list',
  ).toEqual([]);
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
