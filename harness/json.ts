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
 * `/payments/0/creditorName`) names the field at `field` (a path such as payments[0].creditorName):
 * its last name is the field's last name.
 */
export function pathNames(reported: string, field: string): boolean {
  const names = (p: string) => p.split(/[./[\]$]+/).filter((s) => s !== '' && !/^\d+$/.test(s));
  const want = names(field).pop();
  return want !== undefined && names(reported).pop() === want;
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
