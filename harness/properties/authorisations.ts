import type { Target } from '../config/target.js';
import type { ApiResponse } from '../http/response.js';
import { label, type Combination } from '../areas/payments.js';
import { schemaRegistry } from '../values/schemas.js';
import {
  claimedOperations,
  OperationWorld,
  paymentCombinations,
  test as base,
  type Bound,
  type Operation,
  type OperationGroup,
} from '../operations.js';
import { brokenMethod, offeredOr, type BrokenStart, type StartCase } from './authorisations-cases.js';
import { depthFixture, type GeneratedFixtures } from './test.js';
import { controlsOnce, noServerError } from './judge.js';
import { noteRefusal } from '../expect.js';
import { refusedPlainly } from './walk.js';

export { because, expect, req } from '../test.js';

/*
 * The judgements of the generated starts of an authorisation (update PSU data that selects a
 * method: harness/properties/authorisations-cases.ts draws the bodies). Every case starts a fresh
 * authorisation (created, not started) of a fresh resource, made by the operations table's own
 * preparation (harness/operations/world.ts) in a world of its own; the start's answer may be a 5xx,
 * judged as a failure of the property ("no request ever gets a 5xx"), not a broken target.
 */

/** The header checks' fixtures with the generated phase's depth. */
export const test = base.extend<GeneratedFixtures>({ depth: depthFixture });

/** An operation that starts an authorisation with a method: its request is the start body. */
export const isStart = (o: Operation) => o.method === 'PUT' && o.request === 'authorisations/start-request';

/** One claimed authorisation to start: an operation, and a payment one's service and product. */
export interface StartTarget {
  label: string;
  op: Operation;
  c?: Combination;
}

/** Every claimed start of the group: each operation, a payment one on every claimed service × product it is called on. */
export function startTargets(target: Target, group: OperationGroup): { targets: StartTarget[]; skipped: string[] } {
  const { claimed, skipped } = claimedOperations(target, group, isStart);
  const targets = claimed.flatMap((op): StartTarget[] =>
    op.group === 'payments'
      ? paymentCombinations(target, op).map((c) => ({ label: `${op.name} (${label(c)})`, op, c }))
      : [{ label: op.name, op }],
  );
  return { targets, skipped };
}

/** The claimed starts of the group, the running test skipped (before its body) when there is none; why each other is left out is noted. */
export function claimedStarts(target: Target, group: OperationGroup): StartTarget[] {
  const { targets, skipped } = startTargets(target, group);
  for (const why of skipped) test.info().annotations.push({ type: 'not claimed', description: why });
  test.skip(targets.length === 0, skipped.join('; '));
  return targets;
}

/** The labels of the targets, by operation (the cases draw an operation first). */
export function labelsByOperation(targets: StartTarget[]): string[][] {
  const by = new Map<Operation, string[]>();
  for (const t of targets) by.set(t.op, [...(by.get(t.op) ?? []), t.label]);
  return [...by.values()];
}

/** A fresh authorisation of the target, made as its row prepares one, in a world of its own (nothing shared). */
const fresh = (operations: OperationWorld, t: StartTarget): Promise<Bound> =>
  new OperationWorld(operations.c).bind(t.op, t.c);

/**
 * The methods the cases draw from: those offered to a first fresh authorisation of the group (its
 * first claimed target), created and left unstarted. A bank that offers none blocks the property by
 * the operation's control (the world's preparation does).
 */
export async function probeMethods(operations: OperationWorld, targets: StartTarget[]): Promise<string[]> {
  return (await fresh(operations, targets[0])).offered ?? [];
}

const succeeded = (res: ApiResponse) => res.status >= 200 && res.status < 300;

/** The schema of a start's answer by its approach: challengeData (DECOUPLED) or the scaOAuth link (REDIRECT). */
const STARTED = {
  DECOUPLED: 'authorisations/authorisation-started',
  REDIRECT: 'authorisations/authorisation-started-redirect',
} as const;

/** The authorisation's scaStatus, read after the start. */
async function scaStatusOf(b: Bound): Promise<string> {
  if (!b.state) throw new Error(`${b.label}: its row reads no SCA status`);
  return b.state();
}

/**
 * A valid case judged: the offered method drawn starts the fresh authorisation: a 2xx with
 * aspsp-sca-approach DECOUPLED or REDIRECT, the answer as that approach's schema says (challengeData,
 * or the scaOAuth link), and the scaStatus read then no longer received.
 */
export const startAccepted =
  (operations: OperationWorld, targets: StartTarget[]) =>
  async (v: StartCase): Promise<void> => {
    const t = targets.find((x) => x.label === v.on)!;
    const b = await fresh(operations, t);
    const offered = b.offered ?? [];
    const method = offeredOr(v.method, offered);
    const what = `${b.label}: start with authenticationMethodId "${method}" (offered: ${offered.join(', ')})`;
    const res = await b.call({ json: { authenticationMethodId: method }, allow5xx: true });
    noServerError(res, what);
    if (!succeeded(res)) throw new Error(`${what}: expected a 2xx (an offered method); got ${res.describe()}`);
    const approach = res.header('aspsp-sca-approach')?.toUpperCase();
    if (approach !== 'DECOUPLED' && approach !== 'REDIRECT')
      throw new Error(
        `${what}: expected header aspsp-sca-approach DECOUPLED or REDIRECT; got ${res.header('aspsp-sca-approach') ?? 'none'}`,
      );
    const problems = schemaRegistry().check(STARTED[approach], res.body);
    if (problems.length)
      throw new Error(
        `${what}: the ${approach} answer does not match ${STARTED[approach]}: ${problems
          .slice(0, 3)
          .map((p) => `${p.path}: ${p.message}`)
          .join('; ')}`,
      );
    const status = await scaStatusOf(b);
    if (status === 'received' || status === 'undefined')
      throw new Error(`${what}: expected the scaStatus read after it to be no longer received; got ${status}`);
  };

/** What a refused start must not carry: the data of a start (its challenge, its method, its redirect link). */
const START_DATA = ['challengeData', 'chosenScaMethod', 'scaOAuth', 'authorisationId'];

/**
 * A null authenticationMethodId taken as none: update PSU data without a method ("Request body
 * variants: not shown beyond the empty object", endpoint section B) answers a 2xx that starts
 * nothing (no start data; the scaStatus read after it stays received, as the caller checks). A bank
 * may read a JSON null as a member left out; the words name no null.
 */
const nothingStarted = (res: ApiResponse) =>
  succeeded(res) && !new RegExp(`"(${START_DATA.join('|')})"\\s*:`).test(JSON.stringify(res.body ?? ''));

/**
 * A broken case judged: refused (a 4xx carrying no start data) and the authorisation's scaStatus
 * still received, beside its control: the same operation on the same service and product started
 * with an offered method (its row's valid body), accepted once in the same test.
 */
export function startRefused(operations: OperationWorld, targets: StartTarget[]) {
  const control = controlsOnce();
  return async (v: BrokenStart): Promise<void> => {
    const t = targets.find((x) => x.label === v.on)!;
    await control(t.label, async () => (await fresh(operations, t)).call());
    const b = await fresh(operations, t);
    const value = brokenMethod(v.broken, b.offered ?? []);
    const what = `${b.label}: start with authenticationMethodId ${JSON.stringify(value)} (${v.broken.kind}; offered: ${(b.offered ?? []).join(', ')})`;
    const res = await b.call({ json: { authenticationMethodId: value }, allow5xx: true });
    noServerError(res, what);
    const held = refusedPlainly(res, START_DATA) || (value === null && nothingStarted(res));
    noteRefusal(res, held);
    if (!held)
      throw new Error(
        `${what}: expected a refusal (a 4xx carrying no start data${value === null ? ', or the update PSU data without a method: a 2xx that starts nothing' : ''}); got ${res.describe()}`,
      );
    const status = await scaStatusOf(b);
    if (status !== 'received')
      throw new Error(`${what}: expected the scaStatus read after the refusal to stay received; got ${status}`);
  };
}
