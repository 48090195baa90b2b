import type { AnySchema, ErrorObject } from 'ajv';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { createAjv, SCHEMAS, schemaUri, type SchemaId } from '../../schemas/index.js';
import { BgError } from '../errors.js';

/*
 * Request validation: Fastify validates bodies, query strings and path parameters against route
 * schemas that $ref the schemas of schemas/. Every schema of schemas/ is registered with Fastify
 * (addSchema, by its $id) and is in the validator's ajv (draft 2020-12, ajv-formats: createAjv adds
 * the same list). The two ajv instances are shared by every sandbox of the process, so that a schema
 * is compiled once however many sandboxes the self-tests build (route schemas are module constants
 * for the same reason: ajv caches a compiled schema by its object).
 */

/** Bodies are validated as sent: no coercion, no defaults. */
const bodies = createAjv();
/** Query strings and path parameters arrive as text: coerced to the schema's types (a single value to an array of one). */
const parameters = createAjv({ coerceTypes: 'array', verbose: true });

/** A $ref to a schema of schemas/ (or to a part of it, `fragment` as "#/properties/name"), for route schemas. */
export const schemaRef = (id: SchemaId, fragment = '') => ({ $ref: `${schemaUri(id)}${fragment}` }) as const;

/** The JSON path of an ajv error, e.g. "payments[0].creditorName" (BG tppMessage `path`). */
function errorPath(e: ErrorObject): string {
  const parts = e.instancePath.split('/').slice(1);
  if (e.keyword === 'required') parts.push((e.params as { missingProperty: string }).missingProperty);
  if (e.keyword === 'additionalProperties') parts.push((e.params as { additionalProperty: string }).additionalProperty);
  return parts.reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '');
}

/**
 * The Berlin Group answer to a failed validation: 400 FORMAT_ERROR naming the first offending
 * field. A body field by its JSON path; a query or path parameter by its name (as the
 * specification writes it, `names`, where the route's differs), with the value refused.
 */
export function validationError(e: ErrorObject, part: string, names: Record<string, string> = {}): BgError {
  const path = errorPath(e);
  if (part === 'body')
    return new BgError(400, 'FORMAT_ERROR', `body${path ? ` field ${path}` : ''}: ${e.message}`, path || undefined);
  const param = path.split(/[.[]/)[0];
  const name = names[param] ?? param;
  const where = part === 'params' ? 'path' : part === 'querystring' ? 'query' : part;
  if (!name) return new BgError(400, 'FORMAT_ERROR', `${where}: ${e.message}`);
  if (e.keyword === 'required') return new BgError(400, 'FORMAT_ERROR', `${where} ${name} is required`, name);
  const value = e.data === undefined ? '' : `${JSON.stringify(e.data).slice(0, 60)} `;
  const allowed =
    e.keyword === 'enum' ? `: ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}` : '';
  return new BgError(400, 'FORMAT_ERROR', `${where} ${name}: ${value}${e.message}${allowed}`, name);
}

/** Fastify's validator compiler (setValidatorCompiler). */
const validatorCompiler: FastifySchemaCompiler<AnySchema> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodies : parameters).compile(schema);

/** Validation in code, for a body whose schema the route cannot name (a payment's depends on its path). */
export class RequestSchemas {
  /** Throws the answer to the first error when `data` breaks schema `id`. */
  check(id: SchemaId, data: unknown): void {
    const validate = bodies.getSchema(schemaUri(id));
    if (!validate) throw new Error(`sandbox: unknown schema ${id}`);
    if (!validate(data)) throw validationError(validate.errors![0], 'body');
  }
}

/** Registers every schema of schemas/ and the validator compiler. */
export function installValidation(app: FastifyInstance): void {
  for (const schema of SCHEMAS) app.addSchema(schema);
  app.setValidatorCompiler(validatorCompiler);
}
