import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { loadCatalogue } from '../../harness/catalogue.js';
import { fromRoot } from '../../harness/config/paths.js';
import { loadProfile } from '../../harness/config/profile.js';
import { REQUIREMENT_ANNOTATION } from '../../harness/req.js';

/**
 * Every requirement id the collected tests name, from `playwright test --list` of the suite: the
 * annotations req() adds, so ids built from data (one test per field) count as well as literal ones.
 */
function namedIds(): Map<string, string[]> {
  const run = spawnSync(fromRoot('node_modules/.bin/playwright'), ['test', '--list', '--reporter=json'], {
    cwd: fromRoot(),
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    timeout: 120_000,
  });
  if (run.status !== 0) throw new Error(`playwright test --list failed:\n${run.stderr.slice(-2000)}`);
  const named = new Map<string, string[]>();
  type Suite = {
    suites?: Suite[];
    specs?: { file: string; tests: { annotations: { type: string; description?: string }[] }[] }[];
  };
  const walk = (suite: Suite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests) {
        for (const a of t.annotations) {
          if (a.type === REQUIREMENT_ANNOTATION && a.description)
            named.set(a.description, [...new Set([...(named.get(a.description) ?? []), spec.file])]);
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of (JSON.parse(run.stdout) as { suites: Suite[] }).suites) walk(suite);
  return named;
}

let cached: Map<string, string[]> | undefined;
const named = () => (cached ??= namedIds());

test('every catalogue file is valid and no id is declared twice', () => {
  const c = loadCatalogue();
  expect(c.problems).toEqual([]);
  expect(c.all.length).toBeGreaterThan(20);
});

test('every requirement id a test names exists in the catalogue', () => {
  const c = loadCatalogue();
  const unknown = [...named().entries()]
    .filter(([id]) => !c.byId.has(id))
    .map(([id, files]) => `${id} (${files.join(', ')})`);
  expect(unknown).toEqual([]);
});

test('every MUST requirement has a test', () => {
  const untested = loadCatalogue()
    .all.filter((r) => r.level === 'MUST' && !named().has(r.id))
    .map((r) => `${r.area}: ${r.id}`);
  expect(untested).toEqual([]);
});

test('every feature a requirement needs is a feature some profile can claim (the reference claims them all)', () => {
  const reference = new Set(loadProfile('reference').features);
  const missing = [...new Set(loadCatalogue().all.flatMap((r) => r.features))].filter((f) => !reference.has(f));
  expect(missing, 'features of the catalogue the reference profile does not claim').toEqual([]);
});

test('each area has a requirements file, a test folder and a Playwright project', async () => {
  const { AREAS } = await import('../../playwright.config.js');
  const files = readdirSync(fromRoot('requirements'))
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.replace('.yaml', ''));
  for (const f of files) expect(AREAS as readonly string[]).toContain(f);
});
