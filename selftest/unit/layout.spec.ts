import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { fromRoot } from '../../harness/config/paths.js';

// The project's layout as rules: what may import what.

/** The TypeScript and JavaScript files under a folder of the project, relative to the root. */
export function sourcesUnder(folder: string): string[] {
  return readdirSync(fromRoot(folder), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|mts|mjs)$/.test(e.name))
    .map((e) => relative(fromRoot(), join(e.parentPath, e.name)))
    .sort();
}

/** The relative modules a file imports (static, dynamic and `export … from`), resolved from the root. */
function importsOf(file: string): string[] {
  const text = readFileSync(fromRoot(file), 'utf8');
  const specifiers = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)['"]([^'"]+)['"]/gm)].map((m) => m[1]);
  return specifiers
    .filter((s) => s.startsWith('.'))
    .map((s) => relative(fromRoot(), resolve(dirname(fromRoot(file)), s)));
}

test('the suite judges a bank without knowing the sandbox: nothing in harness/ or tests/ imports from sandbox/', () => {
  const breaches = ['harness', 'tests'].flatMap((folder) =>
    sourcesUnder(folder).flatMap((file) =>
      importsOf(file)
        .filter((target) => target === 'sandbox' || target.startsWith('sandbox/'))
        .map((target) => `${file} imports ${target}`),
    ),
  );
  expect(breaches, 'only embedded-sandbox.ts, beside playwright.config.ts, starts the sandbox').toEqual([]);
  // The rule sees imports: the launcher's own import of the sandbox is found.
  expect(importsOf('embedded-sandbox.ts')).toContain('sandbox/tls/pki.js');
});
