import fc from 'fast-check';
import type { BasketsClient } from '../areas/signing-baskets.js';
import type { ApiResponse } from '../http/response.js';
import { TRANSACTION_ORDER } from './payments-walk.js';
import { failWalk as fail, forbiddenIn, refusedPlainly, settles, walkStepsOf } from './walk.js';

/*
 * State walks over one signing basket: sequences of the operations the state tables name (read its
 * status, read it, authorise it, try another authorisation, delete it, delete it once authorised,
 * delete it again), checked against the payment's model of transactionStatus (payments-walk.ts: the
 * table "Payment, basket and cancellation" is one) and the basket's own rule ("A signing basket can
 * be deleted only until a first (partial) authorisation has been applied"): every status the bank
 * shows follows the last one, nothing moves back, a deleted basket is gone or reads a final status,
 * and every step the tables forbid is refused.
 */

export interface BasketWalkModel {
  last?: string;
  /** Its SCA ended (finalised or failed): an authorisation was applied, the basket can no longer be deleted. */
  scaEnded: boolean;
  deleted: boolean;
  steps: string[];
}

export interface BasketWalkReal {
  baskets: BasketsClient;
  basketId: string;
}

const isFinal = (m: Readonly<BasketWalkModel>) => m.last !== undefined && TRANSACTION_ORDER.final.has(m.last);
const refused = (res: ApiResponse) => refusedPlainly(res, ['authorisationId', 'basketId']);

/** Reads the status and holds it against the model; a deleted basket may be gone (a 4xx). */
async function observe(m: BasketWalkModel, r: BasketWalkReal, via: 'status' | 'read'): Promise<void> {
  const res = via === 'status' ? await r.baskets.status(r.basketId) : await r.baskets.read(r.basketId);
  if (res.status >= 500) fail(m, `${via} answered a server error: ${res.describe()}`);
  if (m.deleted && res.status >= 400 && res.status < 500) return;
  if (res.status < 200 || res.status >= 300) fail(m, `${via} of the basket refused: ${res.describe()}`);
  const status = (res.body as { transactionStatus?: unknown } | undefined)?.transactionStatus;
  if (status === undefined && via === 'read') return;
  const next = String(status);
  const why = forbiddenIn(TRANSACTION_ORDER, m.last, next);
  if (why) fail(m, `${why} (${res.label})`);
  if (m.deleted && !TRANSACTION_ORDER.final.has(next)) fail(m, `the deleted basket reads ${next} (${res.label})`);
  m.last = next;
}

const { step, status, read } = walkStepsOf<BasketWalkModel, BasketWalkReal>(observe, 'basket');

/** Authorise the basket (its SCA driven to the end): a step of a walk, or where a walk starts. */
const authorise = step(
  'authorise',
  (m) => !m.scaEnded && !isFinal(m) && !m.deleted,
  async (m, r) => {
    const sca = await r.baskets.authorise(r.basketId);
    m.scaEnded = true;
    if (!['finalised', 'failed'].includes(sca.scaStatus)) fail(m, `the SCA ended ${sca.scaStatus}`);
  },
);

/** The walk's steps: each allowed where the model says the tables allow it, or a step they forbid. */
export function basketWalkSteps(): fc.Arbitrary<fc.AsyncCommand<BasketWalkModel, BasketWalkReal>>[] {
  const authoriseAgain = step(
    'create another authorisation (forbidden: the SCA ended, the basket is final or deleted)',
    // A basket partly authorised (PATC) awaits its next signer's authorisation: that one is allowed.
    (m) => (m.scaEnded && m.last !== 'PATC') || isFinal(m) || m.deleted,
    async (m, r) => {
      const res = await r.baskets.startAuthorisation(r.basketId);
      if (!refused(res)) fail(m, `another authorisation of the basket was not refused: ${res.describe()}`);
    },
  );
  const remove = step(
    'delete',
    (m) => !m.deleted && !m.scaEnded,
    async (m, r) => {
      m.deleted = true;
      const res = await r.baskets.delete(r.basketId);
      if (res.status < 200 || res.status >= 300) fail(m, `delete of the basket was not accepted: ${res.describe()}`);
      // A deleted basket is gone or final, maybe a moment later.
      await settles(
        () => r.baskets.status(r.basketId),
        (s) =>
          (s.status >= 400 && s.status < 500) ||
          TRANSACTION_ORDER.final.has(
            String((s.body as { transactionStatus?: unknown } | undefined)?.transactionStatus),
          ),
        r.baskets.api.target.timeouts.scaMs,
      );
    },
  );
  const removeForbidden = step(
    'delete (forbidden: authorised or deleted)',
    (m) => m.deleted || m.scaEnded,
    async (m, r) => {
      const res = await r.baskets.delete(r.basketId);
      if (!refused(res)) fail(m, `the delete was not refused: ${res.describe()}`);
    },
  );
  // An authorisation weighs thrice and the forbidden delete twice: a walk reaches an authorised
  // basket before a plain delete ends it more often.
  return [
    status,
    read,
    authorise,
    authorise,
    authorise,
    authoriseAgain,
    remove,
    removeForbidden,
    removeForbidden,
    removeForbidden,
  ].map((s) => fc.constant(s));
}

/**
 * Starts a walk from a basket authorised (drawn for half the walks): the steps a basket allows
 * once its authorisation is applied are then tried in most walks, not only in the longer ones.
 */
export const authoriseFirst = (m: BasketWalkModel, r: BasketWalkReal) => authorise.run(m, r);

/** A fresh model, its first status the one create answered (the table: none → RCVD). */
export const freshBasketModel = (initial: string | undefined): BasketWalkModel => ({
  last: initial,
  scaEnded: false,
  deleted: false,
  steps: ['create'],
});
