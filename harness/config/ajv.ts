import { readFileSync } from 'node:fs';
import type { ValidateFunction } from 'ajv';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// Both packages ship CommonJS; under ESM their default export sits one level down.
const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module) as typeof Ajv2020Module;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as typeof addFormatsModule;

export type Ajv = InstanceType<typeof Ajv2020>;

/** One ajv setup for everything the suite validates (draft 2020-12, formats, every error). */
export function createAjv(): Ajv {
  const ajv = new Ajv2020({ allErrors: true, strict: false, verbose: true });
  addFormats(ajv);
  return ajv;
}

let forConfig: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

/** The validator of one of the suite's own schema files (profile, requirement), compiled once per process. */
export function validatorOf(file: string): ValidateFunction {
  let v = compiled.get(file);
  if (!v) {
    forConfig ??= createAjv();
    v = forConfig.compile(JSON.parse(readFileSync(file, 'utf8')) as object);
    compiled.set(file, v);
  }
  return v;
}
