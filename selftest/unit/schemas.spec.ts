import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { fromRoot } from '../../harness/config/paths.js';
import { SchemaRegistry } from '../../harness/values/schemas.js';
import { createAjv, SCHEMA_BASE, SCHEMAS } from '../../schemas/index.js';

// The modules under schemas/ that are no schema: the list of them all, and the lists their users share.
const NOT_SCHEMAS = ['index.ts', 'payments/products.ts'];

const root = fromRoot('schemas');
const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [relative(root, full).replace(/\\/g, '/')];
  });

test('every module under schemas/ is one schema, listed in schemas/index.ts, its $id its path', async () => {
  const files = filesUnder(root).filter((f) => !NOT_SCHEMAS.includes(f));
  expect(
    files.filter((f) => !f.endsWith('.ts')),
    'schemas/ holds TypeScript modules only (each exports its schema `as const`)',
  ).toEqual([]);
  const listed = new Set<unknown>(SCHEMAS);
  for (const file of files) {
    const exported = Object.values((await import(pathToFileURL(join(root, file)).href)) as Record<string, unknown>);
    expect(exported.length, `schemas/${file} exports one schema`).toBe(1);
    expect(listed.has(exported[0]), `schemas/${file} is listed in SCHEMAS (schemas/index.ts)`).toBe(true);
    expect((exported[0] as { $id?: string }).$id, `schemas/${file}: $id`).toBe(
      `${SCHEMA_BASE}${file.replace(/\.ts$/, '.json')}`,
    );
  }
  expect(SCHEMAS.length, 'SCHEMAS lists each module once').toBe(files.length);
});

test('every schema under schemas/ compiles (workers compile each one only on first use)', () => {
  const registry = new SchemaRegistry();
  expect(registry.ids.length).toBeGreaterThan(20);
  expect(() => registry.compileAll()).not.toThrow();
  // The suite's own ajv skips the meta-schema check (harness/config/ajv.ts): every schema is checked here.
  const checked = createAjv({ validateSchema: true });
  for (const schema of SCHEMAS)
    expect(checked.validateSchema(schema), `${schema.$id}: ${checked.errorsText(checked.errors)}`).toBe(true);
});
