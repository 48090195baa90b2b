import fc from 'fast-check';
import { requireSuccess } from '../http/broken.js';
import { differences, getPath, type Json } from '../values/json.js';
import { COMBINATIONS, label, unclaimed, type Combination, type PaymentsClient } from '../areas/payments.js';
import { paymentDeclines } from '../areas/value-spaces.js';
import { acceptedWith, controlsOnce, declinedOnce, idIn, noServerError, readBack, refusedWithout } from './judge.js';
import { brokenBody, breakers, type BrokenCase } from './payments-breaks.js';
import {
  textBody,
  textCases,
  textFields,
  validBody,
  validCases,
  type TextCase,
  type ValidCase,
} from './payments-cases.js';

/*
 * The judgements of the generated payment properties: what one case sends and what it must get.
 * Each throws an Error that says what was sent, what came back and what was expected.
 */

/** The service × product combinations the profile claims (and the target can judge). */
export function claimedCombinations(payments: PaymentsClient): Combination[] {
  return COMBINATIONS.filter((c) => !unclaimed(payments.target, c));
}

/** A valid body is accepted: a 2xx with a paymentId, the answer as its schema says; never a 5xx. */
export async function accepted(payments: PaymentsClient, c: Combination, body: Json, what: string): Promise<string> {
  const res = await payments.initiate(c, { body });
  return payments.basePath(c, acceptedWith(res, what, 'paymentId', 'payments/payment-initiated'));
}

/** What a payment reads back differs from what was sent, at `paths` (every sent leaf when none). */
async function readsBackAsSent(payments: PaymentsClient, basePath: string, sent: Json, what: string, paths?: string[]) {
  const got = readBack(await payments.read(basePath), what).json();
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
      await readsBackAsSent(payments, basePath, body, what, Object.keys(tc.texts));
    },
  };
}

/** A valid case of any claimed combination. */
export const anyValidCase = (payments: PaymentsClient, claimed: Combination[]) =>
  fc.oneof(...claimed.map((c) => validCases(c, payments.profile, payments.body(c)).map((v) => ({ c, v }))));

/**
 * Valid cases judged: accepted (and, with `readsBack`, read back as sent), or declined where the
 * case falls in a may-decline space (an execution date beyond the horizon or on a non-business day,
 * an amount not in two decimals: harness/areas/value-spaces.ts) beside the product's baseline body
 * accepted.
 */
export function validCheck(payments: PaymentsClient, readsBack: boolean) {
  const declined = new Map<string, ReturnType<typeof declinedOnce>>();
  return async ({ c, v }: { c: Combination; v: ValidCase }): Promise<void> => {
    const body = validBody(c, payments.profile, v);
    const what = `initiate ${label(c)} with a valid generated body`;
    const res = await payments.initiate(c, { body });
    const once = declined.get(label(c)) ?? declinedOnce();
    declined.set(label(c), once);
    const baseline = () => payments.initiate(c, { body: payments.body(c) });
    if (await once(res, paymentDeclines(payments.profile, body), 'paymentId', what, baseline)) return;
    if (!readsBack) {
      acceptedWith(res, what, 'paymentId', 'payments/payment-initiated');
      return;
    }
    // Acceptance is payments.initiate.response's: a refusal here blocks the read-back.
    noServerError(res, what);
    requireSuccess(res, 'payments.initiate.response', what);
    await readsBackAsSent(payments, payments.basePath(c, String(idIn(res, 'paymentId'))), body, what);
  };
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
  const control = controlsOnce();
  return async ({ c, rule, status, b }: Broken) => {
    await control(label(c), () => payments.initiate(c, { body: payments.body(c) }));
    const res = await payments.initiate(c, { body: brokenBody(c, payments.profile, b) });
    const what = `initiate ${label(c)} with ${b.path} ${b.value === undefined ? 'left out' : `= ${JSON.stringify(b.value)}`} (the rule: ${rule})`;
    refusedWithout(res, what, 'paymentId', status);
  };
}
