#!/usr/bin/env node
// Prints the requirement catalogue per area (MUST / SHOULD / MAY counts) as a Markdown table.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { tsImport } from 'tsx/esm/api';

const dir = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'requirements');
const rows = readdirSync(dir)
  // not-judged.yaml lists the specification's sentences no requirement quotes: not an area.
  .filter((f) => f.endsWith('.yaml') && f !== 'not-judged.yaml')
  .map((f) => {
    const entries = parse(readFileSync(resolve(dir, f), 'utf8'));
    const n = (level) => entries.filter((e) => e.level === level).length;
    return { area: f.replace('.yaml', ''), total: entries.length, must: n('MUST'), should: n('SHOULD'), may: n('MAY') };
  });
// Normative clauses of the specification judged by the area's requirements, of those that belong
// to the area (quoted by it, or listed for it in not-judged.yaml): harness/reporter/specification.ts.
const { mapSpecification } = await tsImport('../harness/reporter/specification.ts', import.meta.url);
const { coverage } = mapSpecification();
const judged = (c) => (c ? `${c.judged} / ${c.normative}${c.explained ? ` (${c.explained} explained)` : ''}` : '0 / 0');
console.log('| Area | Requirements | MUST | SHOULD | MAY | Clauses judged |');
console.log('|---|---|---|---|---|---|');
for (const r of rows)
  console.log(
    `| \`${r.area}\` | ${r.total} | ${r.must} | ${r.should} | ${r.may} | ${judged(coverage.byArea[r.area])} |`,
  );
const sum = (k) => rows.reduce((s, r) => s + r[k], 0);
console.log(
  `| **all** | **${sum('total')}** | **${sum('must')}** | **${sum('should')}** | **${sum('may')}** | **${judged(coverage)}** |`,
);
console.log(
  `\n${coverage.judged} of ${coverage.normative} normative clauses judged, ${coverage.explained} explained, ${coverage.notExplained.length} neither (${coverage.judgedOrExplainedPercent} % judged or explained).`,
);
