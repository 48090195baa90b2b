#!/usr/bin/env node
// @ts-check
// Prints the requirement catalogue per area (MUST / SHOULD / MAY counts) as a Markdown table;
// `--write-docs` writes that table into docs/areas.md between its markers (a unit test holds that
// the page's table is the one made here: selftest/unit/inventories.spec.ts).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { tsImport } from 'tsx/esm/api';

const dir = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'requirements');
const rows = readdirSync(dir)
  // not-judged.yaml lists the specification's sentences no requirement quotes: not an area.
  .filter((f) => f.endsWith('.yaml') && f !== 'not-judged.yaml')
  .map((f) => {
    /** @type {{ level: string }[]} */
    const entries = parse(readFileSync(resolve(dir, f), 'utf8'));
    /** @param {string} level */
    const n = (level) => entries.filter((e) => e.level === level).length;
    return { area: f.replace('.yaml', ''), total: entries.length, must: n('MUST'), should: n('SHOULD'), may: n('MAY') };
  });
// Normative clauses of the specification judged by the area's requirements, of those that belong
// to the area (quoted by it, or listed for it in not-judged.yaml): harness/reporter/specification.ts.
const { mapSpecification } = await tsImport('../harness/reporter/specification.ts', import.meta.url);
const { coverage } = mapSpecification();
/** @param {{ judged: number, normative: number, explained: number } | undefined} c */
const judged = (c) => (c ? `${c.judged} / ${c.normative}${c.explained ? ` (${c.explained} explained)` : ''}` : '0 / 0');
/** @param {'total' | 'must' | 'should' | 'may'} k */
const sum = (k) => rows.reduce((s, r) => s + r[k], 0);
const table = [
  '| Area | Requirements | MUST | SHOULD | MAY | Clauses judged |',
  '|---|---|---|---|---|---|',
  ...rows.map(
    (r) => `| \`${r.area}\` | ${r.total} | ${r.must} | ${r.should} | ${r.may} | ${judged(coverage.byArea[r.area])} |`,
  ),
  `| **all** | **${sum('total')}** | **${sum('must')}** | **${sum('should')}** | **${sum('may')}** | **${judged(coverage)}** |`,
];
console.log(table.join('\n'));
if (process.argv.includes('--write-docs')) {
  const page = resolve(dir, '..', 'docs', 'areas.md');
  const text = readFileSync(page, 'utf8');
  const m = /(<!-- catalogue:start -->\n)[\s\S]*?(<!-- catalogue:end -->)/.exec(text);
  if (!m) {
    console.error(`catalogue: ${page} has no <!-- catalogue:start --> and <!-- catalogue:end --> markers`);
    process.exit(2);
  }
  writeFileSync(page, text.replace(m[0], `${m[1]}${table.join('\n')}\n${m[2]}`));
  console.log(`\ncatalogue: the table written into ${page}`);
}
console.log(
  `\n${coverage.judged} of ${coverage.normative} normative clauses judged, ${coverage.explained} explained, ${coverage.notExplained.length} neither (${coverage.judgedOrExplainedPercent} % judged or explained).`,
);
