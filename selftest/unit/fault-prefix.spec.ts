import { readdirSync } from 'node:fs';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { fromRoot } from '../../harness/config/paths.js';
import { FAULTS } from '../../sandbox/faults/index.js';
import { AGENT_VARIANTS, VARIANTS } from '../../sandbox/variants/index.js';

// A fault is filed by the area of the rule it breaks: its id starts with the area of one of the
// requirements it names in `breaks` (consents.*, headers.*…), and its file's name starts with that
// area (`<area>.ts`, `<area>-<topic>.ts`, `<area>-properties.ts` for the faults only the generated
// phase catches), so that the faults of an area are found by its name, whatever phase catches them.
// Variants alike: a variant file named by an area holds only that area's variants. The rest of the
// variants are filed by the kind of freedom they show (one kind spans areas: the codes a bank may
// choose, the fields it may omit, the texts it may normalise…), in the files KIND_FILES names; a new
// file is named by an area, or joins that list on purpose.

/** The areas of the catalogue, longest first (so `direct-debit` is not read as a `direct` area). */
const AREAS = readdirSync(fromRoot('requirements'))
  .filter((f) => f.endsWith('.yaml') && f !== 'not-judged.yaml')
  .map((f) => f.replace(/\.yaml$/, ''))
  .sort((a, b) => b.length - a.length);

/** The variant files named by the kind of freedom they show, not by an area. */
const KIND_FILES = [
  'access',
  'behaviours',
  'codes',
  'combined',
  'declines',
  'described',
  'exact',
  'fields',
  'forwarded',
  'freedoms',
  'late-status',
  'login-page',
  'multilevel',
  'omitted',
  'redirect',
  'test-data',
  'text',
  'wire',
];

const areaOf = (id: string) => id.split('.')[0];

/** The area a file's name starts with (`<area>.ts` or `<area>-….ts`), if any. */
const areaOfFile = (file: string) => AREAS.find((a) => file === a || file.startsWith(`${a}-`));

/** Each file of a folder whose default export is a list of entries with ids, by its name (no .ts). */
async function listsOf(folder: 'faults' | 'variants'): Promise<Map<string, string[]>> {
  const lists = new Map<string, string[]>();
  const files = readdirSync(fromRoot('sandbox', folder)).filter((f) => f.endsWith('.ts') && f !== 'index.ts');
  for (const f of files) {
    const name = f.replace(/\.ts$/, '');
    const mod = (await import(`../../sandbox/${folder}/${name}.js`)) as { default?: unknown };
    if (Array.isArray(mod.default))
      lists.set(
        name,
        (mod.default as { id: string }[]).map((e) => e.id),
      );
  }
  return lists;
}

test('the areas are read from the catalogue, hyphenated ones whole', () => {
  expect(AREAS).toEqual(expect.arrayContaining(['direct-debit', 'signing-baskets', 'payments', 'headers']));
  expect(areaOfFile('direct-debit-properties')).toBe('direct-debit');
  expect(areaOfFile('signing-baskets')).toBe('signing-baskets');
  expect(areaOfFile('codes')).toBeUndefined();
});

test('a fault id starts with the area of a requirement it breaks', () => {
  const astray = FAULTS.filter((f) => !f.breaks.some((b) => areaOf(b) === areaOf(f.id)));
  expect(
    astray.map((f) => `${f.id} breaks ${f.breaks.join(', ')}`),
    'fault ids whose prefix is no area of the requirements they break',
  ).toEqual([]);
});

test("a fault's file is its id's area, whatever phase catches it", async () => {
  const lists = await listsOf('faults');
  const filed = [...lists.values()].flat();
  expect(filed.sort(), 'every fault of the index is in exactly one file, and nothing else').toEqual(
    FAULTS.map((f) => f.id).sort(),
  );
  const astray = [...lists].flatMap(([file, ids]) =>
    ids.filter((id) => areaOfFile(file) !== areaOf(id)).map((id) => `${id} in faults/${file}.ts`),
  );
  expect(astray, 'faults filed outside their area (sandbox/faults/<area>[-topic].ts)').toEqual([]);
  const byPhase = FAULTS.filter((f) => f.caughtBy === 'properties');
  expect(byPhase.length, 'the faults only the generated phase catches are marked').toBeGreaterThan(20);
  const properties = [...lists].filter(([file]) => file.endsWith('-properties')).flatMap(([, ids]) => ids);
  expect(
    byPhase.map((f) => f.id).sort(),
    "caughtBy: 'properties' exactly on the faults of the <area>-properties.ts files",
  ).toEqual(properties.sort());
});

test("a variant's file is its id's area, or the kind of freedom it shows", async () => {
  const lists = await listsOf('variants');
  const filed = [...lists.values()].flat();
  expect(filed.sort(), 'every variant of the index is in exactly one file, and nothing else').toEqual(
    [...VARIANTS, ...AGENT_VARIANTS].map((v) => v.id).sort(),
  );
  const kinds = [...lists.keys()].filter((file) => !areaOfFile(file)).sort();
  expect(kinds, 'variant files named by no area are the kind files (KIND_FILES), each on purpose').toEqual(
    [...KIND_FILES].sort(),
  );
  const astray = [...lists].flatMap(([file, ids]) => {
    const area = areaOfFile(file);
    return area ? ids.filter((id) => areaOf(id) !== area).map((id) => `${id} in variants/${file}.ts`) : [];
  });
  expect(astray, 'variants in a file named by another area').toEqual([]);
});
