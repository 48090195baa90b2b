import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { fromRoot } from '../../harness/config/paths.js';
import { DIRECTION, mayImport, PARTS } from '../support/direction.js';

// The inventories of the docs are made, not kept: the catalogue's table in docs/areas.md is the
// one `obg-conformance catalogue` prints (its --write-docs writes it there), and the table of
// rooms in docs/layout.md names every part and room with what the direction rules let it import.

/** The rows of the Markdown tables of a text, as their cells (the header and its rule left out). */
function tableRows(text: string): string[][] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('| '))
    .map((l) =>
      l
        .slice(2, -2)
        .split(' | ')
        .map((c) => c.trim()),
    )
    .slice(1);
}

test("docs/areas.md's catalogue table is the one `obg-conformance catalogue` makes", () => {
  const made = spawnSync(process.execPath, [fromRoot('bin', 'obg-conformance.mjs'), 'catalogue'], { encoding: 'utf8' });
  expect(made.status, made.stderr).toBe(0);
  const table = made.stdout.split('\n').filter((l) => l.startsWith('|'));
  expect(table.length, 'a header, its rule, an area each and the total').toBeGreaterThan(10);
  const page = readFileSync(fromRoot('docs', 'areas.md'), 'utf8');
  const written = /<!-- catalogue:start -->\n([\s\S]*?)<!-- catalogue:end -->/.exec(page)?.[1].trimEnd().split('\n');
  expect(written, 'docs/areas.md: write it with `npm run catalogue -- --write-docs`').toEqual(table);
});

test('the rule behind the "May import" column says what the direction rules say', () => {
  expect(mayImport('selftest')).toBe('anything');
  expect(mayImport('bin')).toBe('anything but `selftest/`');
  expect(mayImport('harness/http')).toBe('`harness/`, `schemas/`, `profiles/`, `spec/`');
  expect(mayImport('sandbox/faults')).toBe('`sandbox/`, `schemas/`, `profiles/`, `spec/`; not `sandbox/variants/`');
  expect(mayImport('requirements'), 'no code of the direction').toBeUndefined();
});

test("docs/layout.md's table names every part and room, each with what the direction rules let it import", () => {
  const rows = tableRows(readFileSync(fromRoot('docs', 'layout.md'), 'utf8'));
  const folders = rows.map(([folder]) => folder.replace(/^`|`$/g, '').replace(/\/$/, ''));
  const rooms = (dir: string) =>
    readdirSync(fromRoot(dir), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => `${dir}/${e.name}`);
  const named = [...PARTS, ...DIRECTION.flatMap((r) => [...r.from, ...r.never]), ...rooms('harness')];
  expect([...new Set(named)].filter((p) => !folders.includes(p)).sort(), 'parts and rooms without a row').toEqual([]);
  expect(
    folders.filter((f) => !existsSync(fromRoot(f))),
    'rows naming nothing there',
  ).toEqual([]);
  const wrong = rows.flatMap(([, , may], i) => {
    const expected = mayImport(folders[i]) ?? '—';
    return may === expected ? [] : [`${folders[i]}: "${may}", by the rules "${expected}"`];
  });
  expect(wrong, '"May import" as selftest/support/direction.ts says').toEqual([]);
});
