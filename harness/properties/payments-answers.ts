import type { ApiResponse } from '../http/response.js';
import { paymentDeclines } from '../areas/value-spaces.js';
import { label, type Combination, type PaymentsClient } from '../areas/payments.js';
import { notPointingAt } from '../http/link-target.js';
import { because, expect } from '../test.js';
import { acceptedWith, declinedOnce, noServerError } from './judge.js';
import { validBody, type ValidCase } from './payments-cases.js';

/*
 * The answers to valid generated bodies judged as the hand-written checks judge the answer to the
 * product's own body: a 2xx carries Location and ASPSP-SCA-Approach, by the same matchers
 * (tests/payments/initiation.spec.ts, payments.initiate.headers); its transactionStatus, when given,
 * is RCVD and each link points at the payment created (notPointingAt, as tests/payments/links.spec.ts
 * judges it; payments.initiate.response). A refusal of a valid case is
 * payments.initiate.response's to judge (the valid-body property): here it is no case judged, and
 * a decline in a may-decline space is noted as there.
 */

/** The SCA approaches a 201 names (reference facts: Headers). */
export const SCA_APPROACH = /^(EMBEDDED|DECOUPLED|REDIRECT)$/;

/** What an accepted valid case's answer is judged for. */
export type AnswerJudge = (res: ApiResponse, c: Combination, what: string) => Promise<void>;

/** Location and ASPSP-SCA-Approach (payments.initiate.headers). */
export const judgeHeaders: AnswerJudge = async (res, _c, what) => {
  await expect(res, because(what)).toHaveHeader('Location');
  await expect(res, because(what)).toHaveHeader('ASPSP-SCA-Approach', SCA_APPROACH);
};

/** RCVD when a transactionStatus is given, and each link pointing at the payment (payments.initiate.response). */
export function judgeCreated(payments: PaymentsClient): AnswerJudge {
  return async (res, c, what) => {
    const id = acceptedWith(res, what, 'paymentId', 'payments/payment-initiated');
    const body = res.json<{ transactionStatus?: string; _links?: Record<string, { href?: unknown }> }>();
    if (body.transactionStatus !== undefined)
      expect(body.transactionStatus, because(`${what}: a new ${label(c)} payment is RCVD (States > Payment)`)).toBe(
        'RCVD',
      );
    const payment = { id, parent: c.product, what: `the ${label(c)} payment` };
    for (const [name, link] of Object.entries(body._links ?? {}))
      if (typeof link?.href === 'string')
        expect(notPointingAt(payments.target, { name, href: link.href }, payment), because(what)).toBeUndefined();
  };
}

/** Judges an accepted valid case's answer with `judge` (a refused one is not judged here). */
export function answerCheck(payments: PaymentsClient, judge: AnswerJudge) {
  const declined = new Map<string, ReturnType<typeof declinedOnce>>();
  return async ({ c, v }: { c: Combination; v: ValidCase }): Promise<void> => {
    const body = validBody(c, payments.profile, v);
    const what = `initiate ${label(c)} with a valid generated body`;
    const res = await payments.initiate(c, { body });
    noServerError(res, what);
    if (res.status < 200 || res.status >= 300) {
      const once = declined.get(label(c)) ?? declinedOnce();
      declined.set(label(c), once);
      await once(res, paymentDeclines(payments.profile, body), 'paymentId', what, () =>
        payments.initiate(c, { body: payments.body(c) }),
      );
      return;
    }
    await judge(res, c, what);
  };
}
