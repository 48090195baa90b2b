import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { loadCatalogue } from '../../harness/catalogue/catalogue.js';
import { fromRoot } from '../../harness/config/paths.js';

// Searching a requirement's id finds where it is judged. The rule: every catalogue id is written
// out, quoted whole, in a file under tests/ (the test that names it, or that test file's table of
// ids); an id assembled from a template (`${area}.x`, `${id}-code`) is found by no search.

const testFiles = () =>
  (readdirSync(fromRoot('tests'), { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ file: join('tests', f), text: readFileSync(fromRoot('tests', f), 'utf8') }));

test('every catalogue id occurs literally in tests/', () => {
  const text = testFiles()
    .map((f) => f.text)
    .join('\n');
  const missing = loadCatalogue()
    .all.map((r) => r.id)
    .filter((id) => !["'", '"', '`'].some((q) => text.includes(`${q}${id}${q}`)));
  expect(missing, 'catalogue ids written nowhere in tests/ as a whole quoted string').toEqual([]);
});

test('no test names a requirement through a template string', () => {
  const assembled = testFiles().flatMap(({ file, text }) =>
    [...text.matchAll(/\b(req|prerequisite|dependsOnControl)\(\s*`[^`]*\$\{/g)].map(
      (m) => `${file}:${text.slice(0, m.index).split('\n').length}: ${m[0]}`,
    ),
  );
  expect(assembled, 'requirement ids assembled from templates').toEqual([]);
});
