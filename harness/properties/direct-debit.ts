import { differences, type Json } from '../values/json.js';
import { DirectDebitClient, GET_FIELDS, test as base } from '../areas/direct-debit.js';
import {
  brokenDirectDebitBody,
  directDebitCaseBody,
  seeded,
  type BrokenDirectDebit,
  type DirectDebitCase,
} from './direct-debit-cases.js';
import { directDebitDeclines } from '../areas/value-spaces.js';
import { requireSuccess } from '../http/broken.js';
import { acceptedWith, controlsOnce, declinedOnce, idIn, noServerError, readBack, refusedWithout } from './judge.js';
import { depthFixture, type GeneratedFixtures } from './test.js';

export { because, expect, req } from '../test.js';

/** The direct debit fixtures with the generated phase's depth; a 5xx is an answer to judge. */
export const test = base.extend<GeneratedFixtures>({
  directDebit: [
    async ({ directDebit }, use) => {
      await use(new DirectDebitClient(directDebit.api.with({ allow5xx: true }), directDebit.consents));
    },
    { scope: 'test', box: 'self' },
  ],
  depth: depthFixture,
});

/** The creditor's own body (the one every check sends), its debtor and mandate drawn from a seed. */
const ownBody = (directDebit: DirectDebitClient) => seeded(() => directDebit.body() as unknown as Json);

/**
 * A valid case judged: a 2xx with a paymentId whose answer matches direct-debit/payment-created, or
 * declined where it falls in a may-decline space (a due date beyond the lead time) beside the
 * creditor's own body accepted; never a 5xx.
 */
export const directDebitAccepted = (directDebit: DirectDebitClient) => {
  const declined = declinedOnce();
  const own = ownBody(directDebit);
  return async (v: DirectDebitCase) => {
    const body = directDebitCaseBody(own, v);
    const what = `create direct debit ${JSON.stringify(body).slice(0, 600)}`;
    const res = await directDebit.create(body);
    const declines = directDebitDeclines(directDebit.api.target.profile, body);
    if (await declined(res, declines, 'paymentId', what, () => directDebit.create(own(v.seed)))) return;
    acceptedWith(res, what, 'paymentId', 'direct-debit/payment-created');
  };
};

/**
 * A broken case judged: a 4xx carrying no paymentId (`status` where the requirement names the exact
 * code), beside its control (the creditor's valid body, accepted once in the same test).
 */
export function directDebitRefused(directDebit: DirectDebitClient, status?: number) {
  const control = controlsOnce();
  const own = ownBody(directDebit);
  return async (b: BrokenDirectDebit) => {
    await control('direct debit', () => directDebit.create(own(b.seed)));
    const res = await directDebit.create(brokenDirectDebitBody(own, b));
    const what = `create direct debit with ${b.path} ${b.value === undefined ? 'left out' : `= ${JSON.stringify(b.value)}`}`;
    refusedWithout(res, what, 'paymentId', status);
  };
}

/** How get payment differs from what create sent, in the fields direct-debit.get.fields judges (an object read back may hold more). */
const getFieldsDiffer = (sent: Json, read: Json): string[] =>
  GET_FIELDS.filter((f) => sent[f] !== undefined).flatMap((f) => differences(sent[f], read[f], f));

/**
 * A valid case read back (direct-debit.get.fields): get payment repeats every field it judges as
 * create sent it, and adds transactionStatus (a string). A refused create blocks it, naming
 * direct-debit.create.response.
 */
export const directDebitReadsBack = (directDebit: DirectDebitClient) => {
  const declined = declinedOnce();
  const own = ownBody(directDebit);
  return async (v: DirectDebitCase) => {
    const body = directDebitCaseBody(own, v);
    const what = `create direct debit ${JSON.stringify(body).slice(0, 600)}`;
    const res = await directDebit.create(body);
    const declines = directDebitDeclines(directDebit.api.target.profile, body);
    if (await declined(res, declines, 'paymentId', what, () => directDebit.create(own(v.seed)))) return;
    noServerError(res, what);
    requireSuccess(res, 'direct-debit.create.response', what);
    const got = readBack(await directDebit.get(String(idIn(res, 'paymentId'))), what).json<Json>();
    const diffs = getFieldsDiffer(body, got);
    if (typeof got.transactionStatus !== 'string')
      diffs.push(`transactionStatus: expected a string, read ${JSON.stringify(got.transactionStatus)}`);
    if (diffs.length) throw new Error(`${what}: get payment other than sent: ${diffs.slice(0, 5).join('; ')}`);
  };
};
