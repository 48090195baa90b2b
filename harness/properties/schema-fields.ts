import { SCHEMAS, schemaUri, type SchemaId } from '../../schemas/index.js';

/*
 * The field rules of a request schema (schemas/), read from the schema itself: the one source the
 * generators draw from, as the sandbox's validation and the suite's checks do. The subset of JSON
 * Schema the project's request schemas use: $ref (relative, with a JSON pointer), allOf, type,
 * properties, required, items, minItems, enum, pattern, format, minLength, maxLength, minimum,
 * maximum (and an anyOf of required fields only, not generated against; a oneOf by its object
 * branch). A keyword
 * outside it throws, so that a schema that grows past what the generators understand is seen.
 */

/** One leaf of a request body and its rules. */
export interface FieldRule {
  /** Its path in the body: "creditorAddress.street"; an array element's fields under "payments[]". */
  path: string;
  /** Whether its object requires it. */
  required: boolean;
  type?: 'string' | 'boolean' | 'object' | 'array' | 'integer' | 'number';
  enum?: readonly unknown[];
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  minimum?: number;
  maximum?: number;
}

type Node = Record<string, unknown>;

const KNOWN = new Set([
  '$schema',
  '$id',
  '$ref',
  '$defs',
  'title',
  'description',
  'allOf',
  'type',
  'properties',
  'required',
  'items',
  'minItems',
  'enum',
  'pattern',
  'format',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  // An anyOf whose branches only name required fields ("one of iban, maskedPan or pan"): the
  // generators keep the product's own references, which hold one; not a rule they break.
  'anyOf',
  // A oneOf of alternative shapes (a direct debit party's address: an object, or one string): the
  // generators draw its object reading, whose fields the rules below describe.
  'oneOf',
]);

const byUri = new Map<string, Node>(SCHEMAS.map((s) => [s.$id, s as unknown as Node]));

/** The node a $ref names, and the $id it is resolved against. */
function resolveRef(ref: string, base: string): { node: Node; base: string } {
  const [file, pointer = ''] = new URL(ref, base).href.split('#');
  const root = byUri.get(file);
  if (!root) throw new Error(`harness/properties: $ref ${ref} (from ${base}) names no schema of schemas/`);
  const node = pointer
    .split('/')
    .filter(Boolean)
    .reduce<unknown>((n, k) => (n as Node | undefined)?.[k], root) as Node | undefined;
  if (!node) throw new Error(`harness/properties: $ref ${ref} (from ${base}) points at nothing`);
  return { node, base: file };
}

/** A node with its $ref and allOf merged in: properties, required and the leaf keywords of all its parts. */
function merged(node: Node, base: string): { node: Node; base: Record<string, string> } {
  const unknown = Object.keys(node).filter((k) => !KNOWN.has(k));
  if (unknown.length) throw new Error(`harness/properties: schema keyword(s) ${unknown.join(', ')} not understood`);
  const out: Node = {};
  const bases: Record<string, string> = {};
  const parts: { node: Node; base: string }[] = [];
  if (typeof node.$ref === 'string') parts.push(resolveRef(node.$ref, base));
  for (const p of (node.allOf as Node[] | undefined) ?? []) parts.push({ node: p, base });
  const object = (node.oneOf as Node[] | undefined)?.find((b) => b.type === 'object');
  if (object) parts.push({ node: object, base });
  const own: Node = { ...node };
  delete own.$ref;
  delete own.allOf;
  delete own.oneOf;
  parts.push({ node: own, base });
  for (const part of parts) {
    const m = part.node === own ? { node: own, base: {} as Record<string, string> } : merged(part.node, part.base);
    for (const [k, v] of Object.entries(m.node)) {
      if (v === undefined || k === 'allOf' || k === '$ref') continue;
      if (k === 'properties') {
        const props = { ...((out.properties as Node | undefined) ?? {}) };
        for (const [name, sub] of Object.entries(v as Node)) {
          props[name] = props[name] ? { allOf: [props[name], sub] } : sub;
          bases[name] = m.base[name] ?? part.base;
        }
        out.properties = props;
      } else if (k === 'required')
        out.required = [...new Set([...((out.required as string[]) ?? []), ...(v as string[])])];
      else out[k] = v;
    }
  }
  return { node: out, base: bases };
}

/** Every field rule under `node`, its children's paths under `prefix`. */
function rulesOf(node: Node, base: string, prefix: string, required: boolean, out: FieldRule[]): void {
  const { node: n, base: childBases } = merged(node, base);
  const rule: FieldRule = { path: prefix, required };
  for (const k of [
    'type',
    'enum',
    'pattern',
    'format',
    'minLength',
    'maxLength',
    'minItems',
    'minimum',
    'maximum',
  ] as const)
    if (n[k] !== undefined) (rule as unknown as Node)[k] = n[k];
  if (!rule.type && n.properties) rule.type = 'object';
  if (prefix) out.push(rule);
  const req = new Set((n.required as string[] | undefined) ?? []);
  for (const [name, sub] of Object.entries((n.properties as Node | undefined) ?? {}))
    rulesOf(sub as Node, childBases[name] ?? base, prefix ? `${prefix}.${name}` : name, req.has(name), out);
  if (n.items) rulesOf(n.items as Node, base, `${prefix}[]`, true, out);
}

const cache = new Map<SchemaId, FieldRule[]>();

/** The field rules of a request schema, by its id ("payments/single-payment"): every leaf and object, in order. */
export function fieldRules(id: SchemaId): FieldRule[] {
  let rules = cache.get(id);
  if (!rules) {
    rules = [];
    const uri = schemaUri(id);
    rulesOf(byUri.get(uri)!, uri, '', true, rules);
    cache.set(id, rules);
  }
  return rules;
}

/** A text field: a string with no pattern, format or enumeration (its rules are its length and the character set). */
export const isText = (r: FieldRule): boolean => r.type === 'string' && !r.pattern && !r.format && !r.enum;
