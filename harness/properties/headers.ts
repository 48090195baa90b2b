import fc from 'fast-check';
import { noteRefusal, resourcesIn } from '../expect.js';
import { Blocked, block } from '../http/broken.js';
import { NOT_JUDGED_ANNOTATION } from '../catalogue/req.js';
import type { ApiResponse } from '../http/response.js';
import { GROUPS, claimedOperations, operation, type Bound, type Operation } from '../operations.js';
import { test as base, type OperationWorld } from '../operations.js';
import type { Target } from '../config/target.js';
import { freshRequestId, type BrokenHeader, type HeaderSet } from './headers-cases.js';
import type { Depth } from './settings.js';
import { depthFixture, type GeneratedFixtures } from './test.js';

export { because, expect, req } from '../test.js';

/*
 * The generated header checks over the operations table: a case is an operation drawn among the
 * claimed ones a rule governs (every group's) and the headers drawn for it. A read is called on the
 * test's shared prerequisites (made once, as the hand-written checks make them); a state-changing
 * operation (create, delete, cancel, start, update) on prerequisites of its own (OperationWorld's
 * fork), so that a call accepted in one case leaves the next its resource as the rule needs it.
 */

/** The header checks' fixtures (the operations world) with the generated phase's depth. */
export const test = base.extend<GeneratedFixtures>({ depth: depthFixture });

/**
 * The operations called under an authorised consent (Consent-ID: the account reads, the direct
 * debit confirmation): the consent costs an SCA per test, more than all of a property's other
 * cases at the default depth, so they are drawn from a depth of 100 cases (nightly) on.
 */
const underConsent = (o: Operation) => o.requires.includes('Consent-ID');

/** The depth from which the operations under an authorised consent are drawn. */
export const CONSENT_OPERATIONS_FROM = 100;

/**
 * The claimed operations a rule governs, over every group (each unclaimed one noted as the
 * hand-written checks note it), reads first: fast-check shrinks a case towards the first, the
 * cheapest. Skips the test when none is claimed.
 */
export function claimedFor(target: Target, applies: (o: Operation) => boolean, depth: Depth): string[] {
  const claimed: Operation[] = [];
  const skipped: string[] = [];
  for (const g of GROUPS) {
    const c = claimedOperations(target, g, applies);
    claimed.push(...c.claimed);
    skipped.push(...c.skipped);
  }
  for (const why of skipped) test.info().annotations.push({ type: 'not claimed', description: why });
  test.skip(claimed.length === 0, skipped.join('; '));
  const drawn =
    depth.cases >= CONSENT_OPERATIONS_FROM || claimed.every(underConsent)
      ? claimed
      : claimed.filter((o) => !underConsent(o));
  if (drawn.length < claimed.length)
    test.info().annotations.push({
      type: 'not drawn',
      description: `not drawn at this depth (${depth.cases} cases; from ${CONSENT_OPERATIONS_FROM} on): ${claimed
        .filter(underConsent)
        .map((o) => o.name)
        .join(', ')}, each under an authorised consent (an SCA per test); the hand-written checks judge them`,
    });
  return [...drawn.filter((o) => !o.changes), ...drawn.filter((o) => o.changes)].map((o) => o.id);
}

/** A case: an operation drawn among `ids`, and what is drawn for it. */
export const onOperations = <T>(ids: string[], values: fc.Arbitrary<T>) =>
  fc.record({ operation: fc.constantFrom(...ids), headers: values });

/**
 * Binds the operations: a read to the test's shared world (once); a state-changing one to a world
 * of its own, new for each call of `bind`, or with `keep` the one it was last kept in (a refusal
 * changes nothing, so refused calls may share one) until `drop`.
 */
export class Binder {
  private readonly reads = new Map<string, Promise<Bound>>();
  private readonly kept = new Map<string, Promise<Bound>>();

  constructor(private readonly shared: OperationWorld) {}

  bind(o: Operation, keep = false): Promise<Bound> {
    if (!o.changes) {
      if (!this.reads.has(o.id)) this.reads.set(o.id, this.shared.bind(o));
      return this.reads.get(o.id)!;
    }
    if (!keep) return this.shared.fork().bind(o);
    if (!this.kept.has(o.id)) this.kept.set(o.id, this.shared.fork().bind(o));
    return this.kept.get(o.id)!;
  }

  /** The operation's kept world may have changed (a call that should have been refused was accepted): the next is new. */
  drop(o: Operation): void {
    this.kept.delete(o.id);
  }
}

const succeeded = (res: ApiResponse) => res.status >= 200 && res.status < 300;

/**
 * The reads among `ids` the target serves made plain (bound, then called with their valid headers):
 * a read whose valid call fails, or whose preparation is blocked, is not this rule's to judge here
 * (its own control judges it) and is named not judged; the rule is blocked only when none is served.
 * For reads only: a read's plain call uses nothing up.
 */
export async function servedReads(binder: Binder, ids: string[]): Promise<string[]> {
  const served: string[] = [];
  const not: { by: string; why: string }[] = [];
  for (const id of ids) {
    const o = operation(id);
    try {
      const res = await (await binder.bind(o)).call({ allow5xx: true });
      if (succeeded(res)) served.push(id);
      else not.push({ by: o.control, why: `${o.name} made plain was not served (${res.describe()})` });
    } catch (e) {
      if (!(e instanceof Blocked)) throw e;
      not.push({ by: e.by, why: `${o.name}: ${e.message.split('\n')[0]}` });
    }
  }
  for (const n of not) test.info().annotations.push({ type: NOT_JUDGED_ANNOTATION, description: `[${n.by}] ${n.why}` });
  if (!served.length)
    block(not[0].by, 'the same reads made plain (the positive control)', not.map((n) => n.why).join('; '));
  return served;
}

const shown = (h: HeaderSet) =>
  Object.entries(h)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    .join(', ');

/** Operations whose call failed made plain too: not this rule's to judge (their own control judges them). */
interface Uncontrolled {
  by: string;
  why: string;
}

/**
 * The acceptance of valid headers, as acceptanceTests judges it: the operation called with the
 * case's headers succeeds (2xx, never a 5xx); where it does not, the same call made plain is tried,
 * and when that fails too the operation is not this rule's to judge. `end` names each such
 * operation not judged, with its control, and blocks the test by the first one's control only when
 * no case was judged (the others' acceptance stands).
 */
export function headersAccepted(binder: Binder) {
  const uncontrolled: Uncontrolled[] = [];
  let judged = 0;
  const check = async (v: { operation: string; headers: HeaderSet }) => {
    const b = await binder.bind(operation(v.operation));
    const id = v.headers['X-Request-ID'];
    const res = await b.call({
      headers: { ...v.headers, ...(id ? { 'X-Request-ID': freshRequestId(id) } : {}) },
      allow5xx: true,
    });
    if (succeeded(res)) return void judged++;
    const plain = await b.call({ allow5xx: true });
    if (!succeeded(plain)) {
      uncontrolled.push({
        by: b.op.control,
        why: `${b.label} fails made plain too (${plain.describe()}), so its answer ${res.describe()} proves nothing of this rule`,
      });
      return;
    }
    throw new Error(
      `${b.label} with ${shown(v.headers)}: expected a success (2xx), as the same call without them got (${plain.describe()}); got ${res.describe()}`,
    );
  };
  const end = () => {
    for (const u of [...new Map(uncontrolled.map((u) => [u.why.split(' (')[0], u])).values()])
      test.info().annotations.push({ type: NOT_JUDGED_ANNOTATION, description: `[${u.by}] ${u.why}` });
    // Blocked only when no operation was judged: the others' acceptance stands.
    if (uncontrolled.length && !judged)
      block(
        uncontrolled[0].by,
        'the same call made plain (the positive control)',
        uncontrolled.map((u) => u.why).join('; '),
      );
  };
  return { check, end };
}

/**
 * The refusal of a broken header value, as refusalTests judges it: the operation called with it is
 * refused (a 4xx carrying no data, never a 5xx) and a state-changing one changes nothing. The first
 * case of each operation is its positive control: after the refused call, the same call with the
 * valid value the broken one was made from, accepted (on a world of its own, which it may use up).
 * Every broken call is noted in the test's refusal ledger (harness/expect.ts), as a refusal matcher
 * notes its own: where the control fails here, the case is not judged, and the fold judges what the
 * test's refusals proved only where a call of their kind was seen accepted anywhere in the run; a
 * counterexample found on another operation stands whatever happened on this one. Later refusals
 * of an operation share one world, refused calls changing nothing.
 */
export function headerRefused(binder: Binder) {
  const controlled = new Set<string>();
  return async (v: { operation: string; headers: BrokenHeader }) => {
    const { header, broken, valid, how } = v.headers;
    const o = operation(v.operation);
    const first = !controlled.has(o.id);
    const b = await binder.bind(o, !first);
    const before = await b.state?.();
    const res = await b.call({ headers: { [header]: broken }, allow5xx: true });
    const after = b.state ? await b.state() : undefined;
    const what = `${b.label} with ${header} ${JSON.stringify(broken)} (${how})`;
    const data = resourcesIn(res.body);
    noteRefusal(res, res.status >= 400 && res.status < 500 && !data.length);
    if (succeeded(res)) {
      binder.drop(o);
      throw new Error(`${what}: expected a refusal (HTTP 4xx carrying no data); got ${res.describe()}`);
    }
    let beside = '';
    if (first) {
      const made = header === 'X-Request-ID' ? freshRequestId(valid) : valid;
      const control = await b.call({ headers: { [header]: made }, allow5xx: true });
      if (!succeeded(control)) return;
      controlled.add(o.id);
      beside = `, as the same call with ${JSON.stringify(made)} was accepted (${control.describe()})`;
    }
    if (res.status < 400 || res.status >= 500 || data.length)
      throw new Error(
        `${what}: expected a refusal (HTTP 4xx carrying no data)${beside}; got ${res.describe()}${data.length ? `, carrying ${data.join(', ')}` : ''}`,
      );
    if (before !== after) {
      binder.drop(o);
      throw new Error(`${what}: a refused call must change nothing; before it ${before}, after it ${after}`);
    }
  };
}
