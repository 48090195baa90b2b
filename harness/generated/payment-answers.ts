import { paymentDeclines } from '../areas/value-spaces.js';
import { label, type Combination, type PaymentsClient } from '../areas/payments.js';
import { because, expect } from '../test.js';
import { declinedOnce, noServerError } from './judge.js';
import { validBody, type ValidCase } from './payment-cases.js';

/*
 * The answers to valid generated bodies judged as the hand-written checks judge the answer to the
 * product's own body (tests/payments/initiation.spec.ts, payments.initiate.headers): a 2xx carries
 * Location and ASPSP-SCA-Approach, by the same matchers. A refusal of a valid case is
 * payments.initiate.response's to judge (the valid-body property): here it is no case judged, and
 * a decline in a may-decline space is noted as there.
 */

/** The SCA approaches a 201 names (reference facts: Headers). */
export const SCA_APPROACH = /^(EMBEDDED|DECOUPLED|REDIRECT)$/;

/** Judges the headers of an accepted valid case (a refused one is not judged here). */
export function answerHeadersCheck(payments: PaymentsClient) {
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
    await expect(res, because(what)).toHaveHeader('Location');
    await expect(res, because(what)).toHaveHeader('ASPSP-SCA-Approach', SCA_APPROACH);
  };
}
