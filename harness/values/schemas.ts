import type { ErrorObject, ValidateFunction } from 'ajv';
import { SCHEMA_BASE, SCHEMA_IDS, schemaUri, type SchemaId } from '../../schemas/index.js';
import { suiteAjv, type Ajv } from '../config/ajv.js';

export { SCHEMA_BASE, type SchemaId };

export interface SchemaProblem {
  /** JSON path of the offending value, e.g. $.aspsps[3].bicFi */
  path: string;
  keyword: string;
  message: string;
  value: unknown;
}

/**
 * Every schema of schemas/ (schemas/index.ts), each compiled on its first use (a worker uses few of
 * them, and compiling all cost every worker a fifth of a second). Ids are "<area>/<name>"
 * ("directory/aspsp-list"), the schema's module path under schemas/.
 */
export class SchemaRegistry {
  private readonly ajv: Ajv = suiteAjv();
  readonly ids: readonly SchemaId[] = SCHEMA_IDS;

  /** Compiles every schema now (the self-tests' check that each one compiles). */
  compileAll(): void {
    for (const id of this.ids) this.validator(id);
  }

  validator(id: string): ValidateFunction {
    const v = this.ajv.getSchema(schemaUri(id));
    if (!v) throw new Error(`unknown schema "${id}" (known: ${this.ids.join(', ')})`);
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
