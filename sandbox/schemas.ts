import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { formatError } from './errors.js';

const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module) as typeof Ajv2020Module;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as typeof addFormatsModule;

const SCHEMAS = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'schemas');
const BASE = 'https://obg-conformance.dev/schemas/';

const list = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => {
    const f = join(dir, n);
    return statSync(f).isDirectory() ? list(f) : n.endsWith('.json') ? [f] : [];
  });

/** The JSON path of an ajv error, e.g. "payments[0].creditorName" (BG tppMessage `path`). */
export function errorPath(e: ErrorObject): string {
  const parts = e.instancePath.split('/').slice(1);
  if (e.keyword === 'required') parts.push((e.params as { missingProperty: string }).missingProperty);
  if (e.keyword === 'additionalProperties') parts.push((e.params as { additionalProperty: string }).additionalProperty);
  return parts.reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '');
}

/** The project's JSON Schemas, compiled once, for validating request bodies. */
export class SandboxSchemas {
  private readonly ajv = new Ajv2020({ allErrors: false, strict: false });
  private readonly cache = new Map<string, ValidateFunction>();

  constructor() {
    addFormats(this.ajv);
    for (const f of list(SCHEMAS)) this.ajv.addSchema(JSON.parse(readFileSync(f, 'utf8')));
  }

  /** Throws 400 FORMAT_ERROR naming the first offending field when `data` breaks schema `id`. */
  assert(id: string, data: unknown, what = 'body'): void {
    let v = this.cache.get(id);
    if (!v) {
      v = this.ajv.getSchema(`${BASE}${id}.json`);
      if (!v) throw new Error(`sandbox: unknown schema ${id}`);
      this.cache.set(id, v);
    }
    if (!v(data)) {
      const e = v.errors![0];
      const path = errorPath(e);
      throw formatError(`${what}${path ? ` field ${path}` : ''}: ${e.message}`, path || undefined);
    }
  }
}
