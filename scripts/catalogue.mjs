#!/usr/bin/env node
// Prints the requirement catalogue per area (MUST / SHOULD / MAY counts) as a Markdown table.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const dir = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'requirements');
const rows = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => {
    const entries = parse(readFileSync(resolve(dir, f), 'utf8'));
    const n = (level) => entries.filter((e) => e.level === level).length;
    return { area: f.replace('.yaml', ''), total: entries.length, must: n('MUST'), should: n('SHOULD'), may: n('MAY') };
  });
console.log('| Area | Requirements | MUST | SHOULD | MAY |');
console.log('|---|---|---|---|---|');
for (const r of rows) console.log(`| \`${r.area}\` | ${r.total} | ${r.must} | ${r.should} | ${r.may} |`);
const sum = (k) => rows.reduce((s, r) => s + r[k], 0);
console.log(`| **all** | **${sum('total')}** | **${sum('must')}** | **${sum('should')}** | **${sum('may')}** |`);
