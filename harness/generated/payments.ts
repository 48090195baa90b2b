import fc from 'fast-check';
import { requireSuccess } from '../http/broken.js';
import type { ApiResponse } from '../http/response.js';
import { differences, getPath, type Json } from '../values/json.js';
import { schemaRegistry } from '../values/schemas.js';
import { COMBINATIONS, label, unclaimed, type Combination, type PaymentsClient } from '../areas/payments.js';
import { brokenBody, breakers, type BrokenCase } from './payment-breakers.js';
import {
  textBody,
  textCases,
  textFields,
  validBody,
  validCases,
  type TextCase,
  type ValidCase,
} from './payment-cases.js';

/*
 * The judgements of the generated payment properties: what one case sends and what it must get.
 * Each throws an Error that says what was sent, what came back and what was expected.
 */

/** The service × product combinations the profile claims (and the target can judge). */
export function claimedCombinations(payments: PaymentsClient): Combination[] {
  return COMBINATIONS.filter((c) => !unclaimed(payments.target, c));
}

const paymentIdOf = (res: ApiResponse) =>
  res.status >= 200 && res.status < 300 ? (res.body as { paymentId?: unknown } | undefined)?.paymentId : undefined;

function serverError(res: ApiResponse, what: string): void {
  if (res.status >= 500) throw new Error(`${what}: expected no server error; got ${res.describe()}`);
}

/** A valid body is accepted: a 2xx with a paymentId, the answer as its schema says; never a 5xx. */
export async function accepted(payments: PaymentsClient, c: Combination, body: Json, what: string): Promise<string> {
  const res = await payments.initiate(c, { body });
  serverError(res, what);
  const id = paymentIdOf(res);
  if (typeof id !== 'string' || !id)
    throw new Error(`${what}: expected a 2xx with a paymentId (a valid body); got ${res.describe()}`);
  const problems = schemaRegistry().check('payments/payment-initiated', res.body);
  if (problems.length)
    throw new Error(
      `${what}: the answer does not match payments/payment-initiated: ${problems
        .slice(0, 5)
        .map((p) => `${p.path}: ${p.message}`)
        .join('; ')}`,
    );
  return payments.basePath(c, id);
}

/** What a payment reads back differs from what was sent, at `paths` (every sent leaf when none). */
async function readBack(payments: PaymentsClient, basePath: string, sent: Json, what: string, paths?: string[]) {
  const read = await payments.read(basePath);
  serverError(read, `${what}, read back`);
  if (read.status < 200 || read.status >= 300) throw new Error(`${what}: read payment refused: ${read.describe()}`);
  const got = read.json();
  const diffs = paths
    ? paths.flatMap((p) =>
        getPath(got, p) === getPath(sent, p)
          ? []
          : [`${p}: sent ${JSON.stringify(getPath(sent, p))}, read ${JSON.stringify(getPath(got, p))}`],
      )
    : differences(sent, got);
  if (diffs.length) throw new Error(`${what}: read back other than sent: ${diffs.slice(0, 5).join('; ')}`);
}

/** Text cases of one combination, judged: accepted and every text read back byte for byte. */
export function textProperty(payments: PaymentsClient, c: Combination) {
  const fields = textFields(c, payments.profile, payments.body(c));
  return {
    arbitrary: textCases(fields),
    check: async (tc: TextCase) => {
      const body = textBody(c, payments.profile, tc);
      const what = `initiate ${label(c)} with ${Object.keys(tc.texts).length} text field(s) over the character set`;
      const basePath = await accepted(payments, c, body, what);
      await readBack(payments, basePath, body, what, Object.keys(tc.texts));
    },
  };
}

/** A valid case of any claimed combination. */
export const anyValidCase = (payments: PaymentsClient, claimed: Combination[]) =>
  fc.oneof(...claimed.map((c) => validCases(c, payments.profile, payments.body(c)).map((v) => ({ c, v }))));

/** A valid case judged: accepted (and, with `readsBack`, read back as sent). */
export async function validCheck(
  payments: PaymentsClient,
  { c, v }: { c: Combination; v: ValidCase },
  readsBack: boolean,
): Promise<void> {
  const body = validBody(c, payments.profile, v);
  const what = `initiate ${label(c)} with a valid generated body`;
  if (!readsBack) {
    await accepted(payments, c, body, what);
    return;
  }
  const res = await payments.initiate(c, { body });
  // Acceptance is payments.initiate.response's: a refusal here blocks the read-back.
  requireSuccess(res, 'payments.initiate.response', what);
  await readBack(payments, payments.basePath(c, String(paymentIdOf(res))), body, what);
}

/** A broken case of a claimed combination, with the rule it breaks. */
export interface Broken {
  c: Combination;
  /** The rule broken, and the status its requirement names (if one). */
  rule: string;
  status?: number;
  b: BrokenCase;
}

/** The breaks of one requirement over the claimed combinations; undefined when none carries its rule. */
export function brokenCases(payments: PaymentsClient, claimed: Combination[], requirement: string) {
  const options = claimed.flatMap((c) =>
    breakers(c, payments.profile, payments.body(c))
      .filter((b) => b.requirement === requirement)
      .map((breaker) => breaker.cases.map((b): Broken => ({ c, rule: breaker.rule, status: breaker.status, b }))),
  );
  return options.length ? fc.oneof(...options) : undefined;
}

/**
 * A broken case judged: refused (a 4xx, or the status the requirement names) carrying no paymentId.
 * Its positive control, once per combination: the product's valid body, accepted in the same test.
 */
export function brokenCheck(payments: PaymentsClient) {
  const controlled = new Set<string>();
  return async ({ c, rule, status, b }: Broken) => {
    if (!controlled.has(label(c))) {
      const control = await payments.initiate(c, { body: payments.body(c) });
      requireSuccess(control, 'payments.initiate.response', `initiate ${label(c)} with its valid body (the control)`);
      controlled.add(label(c));
    }
    const res = await payments.initiate(c, { body: brokenBody(c, payments.profile, b) });
    const what = `initiate ${label(c)} with ${b.path} ${b.value === undefined ? 'left out' : `= ${JSON.stringify(b.value)}`} (the rule: ${rule})`;
    serverError(res, what);
    const refused = status ? res.status === status : res.status >= 400 && res.status < 500;
    if (!refused || paymentIdOf(res) !== undefined || /"paymentId"/.test(JSON.stringify(res.body ?? '')))
      throw new Error(
        `${what}: expected a refusal (HTTP ${status ?? '4xx'} carrying no paymentId); got ${res.describe()}`,
      );
  };
}
