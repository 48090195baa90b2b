import { readdirSync, readFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { collapseWhitespace, loadCatalogue, QUOTE_FILES } from '../../harness/catalogue/catalogue.js';
import {
  OPERATION_PREFIX,
  RESOURCE_RULES,
  PARTLY_JUDGED_IN_RUN,
  RULE_RESOURCES,
  resourceRuleTable,
  type ResourceRule,
  type RuleResource,
} from '../../harness/catalogue/resource-rules.js';
import { fromRoot } from '../../harness/config/paths.js';
import { OPERATIONS } from '../../harness/operations/table.js';
import { coverageLine, coverageMarkdown, mapSpecification, readSpec } from '../../harness/reporter/specification.js';
import { renderSpecificationMap, type MapReport } from '../../harness/reporter/specification-html.js';
import { unitsQuoted } from '../../harness/reporter/spec-sentences.js';

// The rules stated for several resources (harness/catalogue/resource-rules.ts), held to the
// operations table, the catalogue, the tests and the specification: no cell of the table of
// rule × resource is empty or names a requirement no test judges.

const testFiles = () =>
  (readdirSync(fromRoot('tests'), { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts'))
    .map((f) => readFileSync(fromRoot('tests', f), 'utf8'));
const testsText = () => testFiles().join('\n');

/** A requirement a test judges on every claimed service × product: a test file naming it goes over the combinations. */
const judgedPerProduct = (files: string[], id: string) =>
  files.some((f) => f.includes(`'${id}'`) && /forEachCombination\(|COMBINATIONS\.filter\(/.test(f));

/** The resources the operations table has an authorisation's SCA status read of: the table's columns. */
function resourcesOfOperations(): RuleResource[] {
  const byPrefix = new Map(Object.entries(OPERATION_PREFIX).map(([r, p]) => [p, r as RuleResource]));
  return OPERATIONS.filter(
    (o) => o.method === 'GET' && /\/(authorisations|cancellation-authorisations)\/\{[^}]+\}$/.test(o.template),
  ).map((o) => byPrefix.get(o.id.replace(/\.status$/, '')) ?? (`(no resource for ${o.id})` as RuleResource));
}

/** What is wrong with the table: an operation it names the operations table lacks, an empty or unexplained cell, a requirement unknown or judged by no test, a sentence the specification lacks. */
function problemsOf(rules: ResourceRule[]): string[] {
  const catalogue = loadCatalogue();
  const tests = testsText();
  const files = testFiles();
  const spec = readSpec(readFileSync(fromRoot(QUOTE_FILES.spec), 'utf8'));
  const operations = new Set(OPERATIONS.map((o) => o.id));
  return rules.flatMap((r) => {
    const out: string[] = [];
    if (!unitsQuoted(spec, r.sentence).length)
      out.push(`${r.rule}: no sentence of the specification reads "${r.sentence}"`);
    for (const res of RULE_RESOURCES) {
      const op = `${OPERATION_PREFIX[res]}.${r.operation}`;
      if (!operations.has(op)) out.push(`${r.rule} × ${res}: the operations table has no ${op}`);
      const cell = r.cells[res] as { judgedBy?: string; notJudged?: string } | undefined;
      if (!cell || (!cell.judgedBy?.trim() && !cell.notJudged?.trim()))
        out.push(`${r.rule} × ${res}: an empty cell (neither judged nor "not judged, because …")`);
      else if (cell.judgedBy !== undefined) {
        if (!catalogue.byId.has(cell.judgedBy)) out.push(`${r.rule} × ${res}: no requirement ${cell.judgedBy}`);
        else if (!tests.includes(`'${cell.judgedBy}'`)) out.push(`${r.rule} × ${res}: no test names ${cell.judgedBy}`);
        const spread = res === 'payment' || res === 'cancellation' ? r.products?.[res] : 'every';
        if (spread === undefined || (spread !== 'every' && !spread.firstOnly?.trim()))
          out.push(`${r.rule} × ${res}: not said whether judged on every claimed service × product, or why not`);
        else if (spread === 'every' && res !== 'consent' && res !== 'basket' && !judgedPerProduct(files, cell.judgedBy))
          out.push(
            `${r.rule} × ${res}: said judged on every service × product, but no test of ${cell.judgedBy} goes over them`,
          );
      }
    }
    return out;
  });
}

test('the table of rule × resource has a column for every resource the operations table authorises', () => {
  expect([...new Set(resourcesOfOperations())].sort()).toEqual([...RULE_RESOURCES].sort());
});

test('every cell of the table of rule × resource is judged by a requirement a test names, or says why not', () => {
  expect(problemsOf(RESOURCE_RULES), `the table:\n${resourceRuleTable()}`).toEqual([]);
});

test('an empty cell, an unknown requirement or an operation the table lacks is reported', () => {
  const broken: ResourceRule = {
    ...RESOURCE_RULES[0],
    rule: 'broken',
    cells: {
      consent: { judgedBy: 'no.such.requirement' },
      payment: { judgedBy: '' },
      cancellation: { notJudged: ' ' },
      basket: { judgedBy: 'authorisations.create.response' },
    },
  };
  expect(problemsOf([broken])).toEqual([
    'broken × consent: no requirement no.such.requirement',
    'broken × payment: an empty cell (neither judged nor "not judged, because …")',
    'broken × cancellation: an empty cell (neither judged nor "not judged, because …")',
  ]);
  expect(problemsOf([{ ...RESOURCE_RULES[0], rule: 'no row', operation: 'delete' as 'start' }])).toHaveLength(4);
  // A product spread claimed but not made, or left unexplained.
  const spread: ResourceRule = {
    ...RESOURCE_RULES[0],
    rule: 'spread',
    cells: { ...RESOURCE_RULES[0].cells, payment: { judgedBy: 'authorisations.qr.image' } },
    products: { payment: 'every', cancellation: { firstOnly: ' ' } },
  };
  expect(problemsOf([spread])).toEqual([
    'spread × payment: said judged on every service × product, but no test of authorisations.qr.image goes over them',
    'spread × cancellation: not said whether judged on every claimed service × product, or why not',
  ]);
});

test('the specification map shows a rule judged on some resources only as partly judged, with the rest listed', () => {
  const map = mapSpecification();
  const partly = [...map.units.values()].filter((c) => c.partly?.length);
  const start = RESOURCE_RULES.find((r) => r.sentence.startsWith('| received | start authorisation'))!;
  const marked = partly.find((c) => collapseWhitespace(c.unit.text) === collapseWhitespace(start.sentence));
  expect(marked, `a partly judged clause at ${start.sentence}`).toBeDefined();
  expect(marked!.requirements.length, 'the clause is judged (on the other resources)').toBeGreaterThan(0);
  expect(marked!.partly!.flatMap((p) => p.notOn.map((n) => n.resource))).toEqual(['basket']);
  // A rule judged on every resource marks nothing.
  const full = mapSpecification(undefined, undefined, undefined, undefined, [RESOURCE_RULES[1]]);
  expect([...full.units.values()].filter((c) => c.partly?.length)).toEqual([]);
});

test('partly judged clauses are counted among the judged and listed in the coverage of conformance.md', () => {
  const { coverage } = mapSpecification();
  const start = RESOURCE_RULES.find((r) => r.sentence.startsWith('| received | start authorisation'))!;
  const listed = coverage.partly ?? [];
  expect(listed.map((p) => collapseWhitespace(p.sentence))).toContain(collapseWhitespace(start.sentence));
  expect(listed.length, 'partly judged clauses are judged clauses').toBeLessThanOrEqual(coverage.judged);
  expect(coverageLine(coverage)).toContain(`, ${listed.length} of them partly)`);
  const md = coverageMarkdown(coverage).join('\n');
  expect(md).toContain('Judged clauses partly judged');
  expect(md).toContain(`(${start.rule}): not on basket, because`);
  // None partly judged: no words about it.
  const none = { ...coverage, partly: [] };
  expect(coverageLine(none)).not.toContain('partly');
  expect(coverageMarkdown(none).join('\n')).not.toContain('partly judged');
});

test("the map's HTML says at a partly judged clause which resources it is not judged on, and why", () => {
  const report: MapReport = {
    suite: { name: 'obg-conformance', version: '0', commit: 'c0ffee', specSha256: 'ab'.repeat(32) },
    target: { baseUrl: 'http://127.0.0.1:1', profile: 'reference', embedded: true },
    verdict: 'conformant',
    requirements: [],
  };
  const html = renderSpecificationMap(report);
  const notes = html.match(/<span class="why" data-partly="[^"]*">[^<]*<\/span>/g) ?? [];
  expect(notes.length, 'a partly judged note in the map').toBeGreaterThan(0);
  expect(notes.join('\n')).toContain('not on basket, because');
});

test('the map says a clause is partly judged in the run where its check saw only the other reading', () => {
  const id = 'consents.delete.message-and-links';
  const message = `not judged: delete consent answered Berlin Group's 204 with no body ${PARTLY_JUDGED_IN_RUN}`;
  const report = (status: 'skipped' | 'passed'): MapReport => ({
    suite: { name: 'obg-conformance', version: '0', commit: 'c0ffee', specSha256: 'ab'.repeat(32) },
    target: { baseUrl: 'http://127.0.0.1:1', profile: 'reference', embedded: true },
    verdict: 'conformant',
    requirements: [
      {
        id,
        level: 'MUST',
        area: 'consents',
        section: 'B',
        text: 'the structure',
        verdict: status,
        tests: [{ title: 't', file: 'f', status, message: status === 'skipped' ? message : '' }],
      },
    ],
  });
  const note = new RegExp(`data-partly-run="${id.replace(/\./g, '\\.')}">partly judged in this run`);
  expect(renderSpecificationMap(report('skipped'))).toMatch(note);
  expect(renderSpecificationMap(report('passed'))).not.toMatch(note);
});

test('docs/areas.md holds the table of rule × resource as the code makes it', () => {
  const docs = readFileSync(fromRoot('docs', 'areas.md'), 'utf8');
  const copy = docs.split('<!-- resource-rules:start -->\n')[1]?.split('\n<!-- resource-rules:end -->')[0];
  expect(copy, 'docs/areas.md: the table between the resource-rules markers').toBe(resourceRuleTable());
});
