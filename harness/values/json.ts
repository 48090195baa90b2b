/** A JSON object, as the suite builds and reads bodies. */
export type Json = Record<string, unknown>;

const segments = (path: string) => path.split(/\.|\[(\d+)\]/).filter((s) => s !== undefined && s !== '');

/** The value at a path such as payments[0].creditorName. */
export function getPath(obj: unknown, path: string): unknown {
  return segments(path).reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Json)[k] : undefined), obj);
}

/** A copy of `obj` with the value at `path` set (or removed when `value` is undefined). */
export function withPath(obj: Json, path: string, value: unknown): Json {
  const copy = structuredClone(obj);
  const keys = segments(path);
  let o = copy as Json;
  for (const k of keys.slice(0, -1)) o = o[k] as Json;
  const last = keys[keys.length - 1];
  if (value === undefined) {
    if (Array.isArray(o)) o.splice(Number(last), 1);
    else delete o[last];
  } else o[last] = value;
  return copy;
}

/**
 * Whether a path as a target reports it (`$.payments[0].creditorName`, `payments.0.creditorName`,
 * `/payments/0/creditorName`, `body.payments[0].creditorName`) names the field at `field` (a path
 * such as payments[0].creditorName):
 * the whole path, every name and index in order, in any of those notations (a reported
 * `creditorName` names a top-level creditorName, not payments[0].creditorName).
 */
export function pathNames(reported: string, field: string): boolean {
  const segments = (p: string) => p.split(/[./[\]$]+/).filter((s) => s !== '');
  const want = segments(field);
  // A path rooted at the request's body (`body.instructedAmount`, as request validators report it) names the same field.
  const got = segments(reported).filter((s, i) => !(i === 0 && s === 'body' && want[0] !== 'body'));
  return want.length > 0 && want.length === got.length && want.every((s, i) => s === got[i]);
}

/** Every leaf of `sent` that `read` does not hold unchanged, as "path: sent …, read …". */
export function differences(sent: unknown, read: unknown, path = ''): string[] {
  if (sent && typeof sent === 'object') {
    if (!read || typeof read !== 'object' || Array.isArray(sent) !== Array.isArray(read))
      return [
        `${path || '$'}: sent ${JSON.stringify(sent).slice(0, 120)}, read ${JSON.stringify(read)?.slice(0, 120)}`,
      ];
    const out: string[] = [];
    if (Array.isArray(sent) && Array.isArray(read) && sent.length !== read.length)
      out.push(`${path}: sent ${sent.length} elements, read ${read.length}`);
    for (const [k, v] of Object.entries(sent))
      out.push(...differences(v, (read as Json)[k], Array.isArray(sent) ? `${path}[${k}]` : path ? `${path}.${k}` : k));
    return out;
  }
  return sent === read ? [] : [`${path}: sent ${JSON.stringify(sent)}, read ${JSON.stringify(read)}`];
}

/**
 * Where two readings of one resource disagree, as "path: a …, b …": on the fields both carry
 * (`fields`, or every key both carry), recursively, so that fields one of them adds (proprietary or
 * later fields) or leaves out (listed, not required) are not judged. Arrays agree element by
 * element and in length.
 */
export function disagreements(a: unknown, b: unknown, fields?: readonly string[], path = ''): string[] {
  const here = (k: string) => (path ? `${path}.${k}` : k);
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return [`${path || '$'}: ${a.length} elements, and ${b.length}`];
    return a.flatMap((x, i) => disagreements(x, b[i], undefined, `${path}[${i}]`));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = (fields ?? Object.keys(a)).filter((k) => k in (a as Json) && k in (b as Json));
    return keys.flatMap((k) => disagreements((a as Json)[k], (b as Json)[k], undefined, here(k)));
  }
  return a === b
    ? []
    : [`${path || '$'}: ${JSON.stringify(a)?.slice(0, 120)}, and ${JSON.stringify(b)?.slice(0, 120)}`];
}

/** Whether `read` holds every leaf of `sent` unchanged (extra fields of `read` allowed). */
export const holds = (sent: unknown, read: unknown): boolean => differences(sent, read).length === 0;
