import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { loadCatalogue } from '../../fixtures/catalogue.js';
import { fromRoot } from '../../fixtures/config/paths.js';
import { loadProfile } from '../../fixtures/config/profile.js';

const specFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => {
    const f = join(dir, n);
    return statSync(f).isDirectory() ? specFiles(f) : n.endsWith('.ts') ? [f] : [];
  });

/** Every requirement id a test file names through req(...). */
function namedIds(): Map<string, string[]> {
  const named = new Map<string, string[]>();
  for (const file of specFiles(fromRoot('tests'))) {
    const text = readFileSync(file, 'utf8');
    for (const call of text.matchAll(/req\(([^)]*)\)/g)) {
      for (const m of call[1].matchAll(/['"`]([a-z][a-z0-9-]*(?:\.[a-z0-9-]+){2,})['"`]/g)) {
        named.set(m[1], [...(named.get(m[1]) ?? []), file.replace(fromRoot(), '')]);
      }
    }
  }
  return named;
}

test('every catalogue file is valid and no id is declared twice', () => {
  const c = loadCatalogue();
  expect(c.problems).toEqual([]);
  expect(c.all.length).toBeGreaterThan(20);
});

test('every requirement id a test names exists in the catalogue', () => {
  const c = loadCatalogue();
  const unknown = [...namedIds().entries()].filter(([id]) => !c.byId.has(id)).map(([id, files]) => `${id} (${files.join(', ')})`);
  expect(unknown).toEqual([]);
});

test('every MUST requirement has a test', () => {
  const named = namedIds();
  const untested = loadCatalogue().all.filter((r) => r.level === 'MUST' && !named.has(r.id)).map((r) => `${r.area}: ${r.id}`);
  expect(untested).toEqual([]);
});

test('every feature a requirement needs is a feature some profile can claim (the reference claims them all)', () => {
  const reference = new Set(loadProfile('reference').features);
  const missing = [...new Set(loadCatalogue().all.flatMap((r) => r.features))].filter((f) => !reference.has(f));
  expect(missing, 'features of the catalogue the reference profile does not claim').toEqual([]);
});

test('each area has a requirements file, a test folder and a Playwright project', async () => {
  const { AREAS } = await import('../../playwright.config.js');
  const files = readdirSync(fromRoot('requirements')).filter((f) => f.endsWith('.yaml')).map((f) => f.replace('.yaml', ''));
  for (const f of files) expect(AREAS as readonly string[]).toContain(f);
});
