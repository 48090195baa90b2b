import { readFileSync } from 'node:fs';
import type { AnySchemaObject, ValidateFunction } from 'ajv';
import { createAjv, type Ajv } from '../../schemas/index.js';

export type { Ajv };

let shared: Ajv | undefined;

/**
 * The suite's one ajv, made on first use: draft 2020-12, formats, every schema of schemas/ (each
 * compiled on its first use), every error.
 */
export function suiteAjv(): Ajv {
  // No meta-schema check of schemas/ here (compiling the 2020-12 meta-schema cost every worker a
  // tenth of a second): the sandbox's validators check every schema at each start, and so do the unit tests.
  shared ??= createAjv({ allErrors: true, verbose: true, validateSchema: false });
  return shared;
}

let defaulting: Ajv | undefined;

/**
 * An ajv that fills in a schema's `default`s as it validates (useDefaults), for the suite's own
 * inputs (the profile) only: an answer the suite judges is validated by suiteAjv(), which never
 * changes what it was given.
 */
function defaultingAjv(): Ajv {
  defaulting ??= createAjv({ allErrors: true, verbose: true, validateSchema: false, useDefaults: true });
  return defaulting;
}

const compiled = new Map<string | AnySchemaObject, ValidateFunction>();
const compiledWithDefaults = new Map<string | AnySchemaObject, ValidateFunction>();

/**
 * The validator of one of the suite's own schemas (the profile's, a requirement's): a schema object,
 * or the path of a JSON file. Compiled once per process. With `applyDefaults`, validating also
 * writes each absent field's `default` into the data (ajv fills defaults only inside objects that
 * exist: a section whose inner fields have defaults needs a `default: {}` of its own).
 */
export function validatorOf<T = unknown>(
  schema: string | AnySchemaObject,
  { applyDefaults = false }: { applyDefaults?: boolean } = {},
): ValidateFunction<T> {
  const cache = applyDefaults ? compiledWithDefaults : compiled;
  let v = cache.get(schema) as ValidateFunction<T> | undefined;
  if (!v) {
    const object: AnySchemaObject = typeof schema === 'string' ? JSON.parse(readFileSync(schema, 'utf8')) : schema;
    v = (applyDefaults ? defaultingAjv() : suiteAjv()).compile<T>(object);
    cache.set(schema, v);
  }
  return v;
}
