import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { createAjv, type Ajv } from './config/ajv.js';
import { fromRoot } from './config/paths.js';

export const SCHEMA_BASE = 'https://obg-conformance.dev/schemas/';

function listJson(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? listJson(full) : name.endsWith('.json') ? [full] : [];
  });
}

export interface SchemaProblem {
  /** JSON path of the offending value, e.g. $.aspsps[3].bicFi */
  path: string;
  keyword: string;
  message: string;
  value: unknown;
}

/**
 * Every schema of schemas/ loaded; each compiled on its first use (a worker uses few of them,
 * and compiling all cost every worker a fifth of a second). Ids are the file path under schemas/
 * without `.json` ("directory/aspsp-list"); the file's $id must be SCHEMA_BASE + that path.
 */
export class SchemaRegistry {
  private readonly ajv: Ajv;
  private readonly compiled = new Map<string, ValidateFunction>();
  readonly ids: string[];

  constructor(dir = fromRoot('schemas')) {
    this.ajv = createAjv();
    this.ids = [];
    for (const file of listJson(dir).sort()) {
      const id = relative(dir, file)
        .replace(/\\/g, '/')
        .replace(/\.json$/, '');
      const schema = JSON.parse(readFileSync(file, 'utf8')) as { $id?: string };
      if (schema.$id !== `${SCHEMA_BASE}${id}.json`) {
        throw new Error(
          `schemas/${id}.json: $id must be "${SCHEMA_BASE}${id}.json" (found ${JSON.stringify(schema.$id)})`,
        );
      }
      this.ajv.addSchema(schema);
      this.ids.push(id);
    }
  }

  /** Compiles every schema now (the self-tests' check that each one compiles). */
  compileAll(): void {
    for (const id of this.ids) this.validator(id);
  }

  validator(id: string): ValidateFunction {
    let v = this.compiled.get(id);
    if (!v) {
      const found = this.ajv.getSchema(`${SCHEMA_BASE}${id}.json`);
      if (!found) throw new Error(`unknown schema "${id}" (known: ${this.ids.join(', ')})`);
      v = found;
      this.compiled.set(id, v);
    }
    return v;
  }

  /** The problems of `data` against schema `id`; empty when it conforms. */
  check(id: string, data: unknown): SchemaProblem[] {
    const v = this.validator(id);
    if (v(data)) return [];
    return (v.errors ?? []).map((e: ErrorObject) => ({
      path: toJsonPath(e.instancePath, e),
      keyword: e.keyword,
      message: e.message ?? e.keyword,
      value: e.data,
    }));
  }
}

function toJsonPath(pointer: string, e: ErrorObject): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (e.keyword === 'required') parts.push((e.params as { missingProperty: string }).missingProperty);
  if (e.keyword === 'additionalProperties') parts.push((e.params as { additionalProperty: string }).additionalProperty);
  return (
    '$' +
    parts
      .map((p) => (/^\d+$/.test(p) ? `[${p}]` : /^[A-Za-z_$][\w$]*$/.test(p) ? `.${p}` : `[${JSON.stringify(p)}]`))
      .join('')
  );
}

let shared: SchemaRegistry | undefined;
/** The registry of this worker, compiled on first use. */
export function schemaRegistry(): SchemaRegistry {
  shared ??= new SchemaRegistry();
  return shared;
}
