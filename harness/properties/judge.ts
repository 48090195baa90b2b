import { test } from '@playwright/test';
import { declinedBy, describeDecline, type MayDecline } from '../areas/value-spaces.js';
import { noteRefusal } from '../expect.js';
import { requireSuccess } from '../http/broken.js';
import type { ApiResponse } from '../http/response.js';
import type { SchemaId } from '../../schemas/index.js';
import { schemaRegistry } from '../values/schemas.js';
import { refusedPlainly } from './walk.js';

/*
 * The judgements every generated property of a resource shares: no answer is a 5xx ("no request
 * ever gets a 5xx": a failure of the property, not a broken target), a valid request is accepted
 * with its id and the answer its schema says, a created resource read back, and a broken one
 * refused carrying no id. Each throws an Error saying what was sent, what came back and what was
 * expected; the property's failure report adds the requirement.
 */

const succeeded = (res: ApiResponse) => res.status >= 200 && res.status < 300;

/** A 5xx fails the property. */
export function noServerError(res: ApiResponse, what: string): void {
  if (res.status >= 500) throw new Error(`${what}: expected no server error; got ${res.describe()}`);
}

/** The id member of an answer (e.g. paymentId), where the answer is a 2xx. */
export const idIn = (res: ApiResponse, member: string): unknown =>
  succeeded(res) ? (res.body as Record<string, unknown> | undefined)?.[member] : undefined;

/** A valid request accepted: a 2xx with a non-empty `member` (the new resource's id) and the answer as `schema` says; returns the id. */
export function acceptedWith(res: ApiResponse, what: string, member: string, schema: SchemaId): string {
  noServerError(res, what);
  const id = idIn(res, member);
  if (typeof id !== 'string' || !id) throw new Error(`${what}: expected a 2xx with a ${member}; got ${res.describe()}`);
  const problems = schemaRegistry().check(schema, res.body);
  if (problems.length)
    throw new Error(
      `${what}: the answer does not match ${schema}: ${problems
        .slice(0, 5)
        .map((p) => `${p.path}: ${p.message}`)
        .join('; ')}`,
    );
  return id;
}

/**
 * A resource created by a valid request and read back: its creation must succeed (a refusal blocks
 * the read-back, naming `by`, the requirement that judges the creation), then its read must be a
 * 2xx; returns the read answer. No answer may be a 5xx.
 */
export async function createdAndRead(
  what: string,
  by: string,
  create: () => Promise<ApiResponse>,
  read: (created: ApiResponse) => Promise<ApiResponse>,
): Promise<ApiResponse> {
  const res = await create();
  noServerError(res, what);
  requireSuccess(res, by, what);
  return readBack(await read(res), what);
}

/** A read back of what `what` created: a 2xx, never a 5xx; returns it. */
export function readBack(got: ApiResponse, what: string): ApiResponse {
  noServerError(got, `${what}, read back`);
  if (!succeeded(got)) throw new Error(`${what}: the read back was refused: ${got.describe()}`);
  return got;
}

/** A broken request refused: a 4xx (or `status`, where the requirement names the exact code) carrying no `member` (no resource made). */
export function refusedWithout(res: ApiResponse, what: string, member: string, status?: number): void {
  noServerError(res, what);
  const held = refusedPlainly(res, [member]) && (status === undefined || res.status === status);
  noteRefusal(res, held);
  if (!held)
    throw new Error(
      `${what}: expected a refusal (HTTP ${status ?? '4xx'} carrying no ${member}); got ${res.describe()}`,
    );
}

/**
 * The positive controls of a property's refusals, as every refusal of the suite has them
 * (harness/expect.ts, the refusal ledger): `once(key, make)` makes the valid request of `key`
 * (a product, an operation) the first time only, so that the test sees that kind of request
 * accepted beside its refusals. Where the bank refuses it here, the refusals (noted by
 * refusedWithout, or noteRefusal) are judged only if a call of their kind was seen accepted
 * elsewhere in the run, else blocked by the kind's control (harness/reporter/fold.ts): the property
 * runs on, and a counterexample it finds is kept in its message either way.
 */
export function controlsOnce() {
  const done = new Set<string>();
  return async (key: string, make: () => Promise<ApiResponse>): Promise<void> => {
    if (done.has(key)) return;
    done.add(key);
    await make();
  };
}

/**
 * A valid case that may fall in a may-decline space (harness/areas/value-spaces.ts): declined when
 * refused as one of `declines` allows (a 4xx, its code, carrying no `member`) and the operation's
 * baseline (`baseline`: the hand-written body, made once per test) is accepted, noted in the
 * test's annotations; a decline beside a refused baseline fails. Returns the freedom declined by,
 * or undefined when the answer is no such decline (then judge it as a valid case's).
 */
export function declinedOnce() {
  let baselineAccepted = false;
  return async (
    res: ApiResponse,
    declines: readonly MayDecline[],
    member: string,
    what: string,
    baseline: () => Promise<ApiResponse>,
  ): Promise<MayDecline | undefined> => {
    const d = declinedBy(res, declines, member);
    if (!d) return undefined;
    if (!baselineAccepted) {
      const base = await baseline();
      noServerError(base, `${what} (the baseline)`);
      if (!succeeded(base))
        throw new Error(
          `${what}: declined (${res.describe()}), and the baseline of the same operation refused too (${base.describe()}): ${describeDecline(d)}; a refusal of the baseline is a refusal of what every bank must accept`,
        );
      baselineAccepted = true;
    }
    const info = test.info();
    if (!info.annotations.some((a) => a.type === 'declined' && a.description?.startsWith(`${d.id}:`)))
      info.annotations.push({ type: 'declined', description: describeDecline(d) });
    return d;
  };
}
