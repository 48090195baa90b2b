import fc from 'fast-check';
import type { ApiResponse } from '../http/response.js';
import {
  failWalk as fail,
  forbiddenIn,
  refusedPlainly as refusedOf,
  walkStepsOf,
  type StatusOrder,
  type WalkSteps,
} from './walk.js';
import type { PaymentsClient } from '../areas/payments.js';

/*
 * State walks over one payment: sequences of the operations the state tables name (read its status,
 * read it, authorise it, try another authorisation, cancel it), checked against a model of the tables
 * (States > Payment, basket and cancellation; reference-facts: a final resource is not authorised
 * again; ISO 20022's order of transactionStatus): every status the bank shows is one the model
 * allows after the last one shown, nothing moves backwards, a final status stays, and every step
 * the tables forbid is refused.
 */

/**
 * The order of transactionStatus (ISO 20022): received, pending or partially accepted, accepted
 * (technical validation, then customer profile and the others), settlement in process, settled.
 * A status never shows one of a lower rank after it; a final one never changes.
 */
export const FINAL = new Set(['ACSC', 'ACCC', 'RJCT', 'CANC']);
export const TRANSACTION_ORDER: StatusOrder = {
  field: 'transactionStatus',
  rank: {
    RCVD: 0,
    PDNG: 1,
    PATC: 1,
    ACTC: 2,
    ACCP: 3,
    ACFC: 3,
    ACWC: 3,
    ACWP: 3,
    PART: 3,
    ACSP: 4,
    ACSC: 5,
    ACCC: 5,
    RJCT: 6,
    CANC: 6,
  },
  final: FINAL,
};

/** Why `next` may not follow `last`, or undefined when it may. */
export const forbiddenMove = (last: string | undefined, next: string) => forbiddenIn(TRANSACTION_ORDER, last, next);

/** The model: what the tables say of the payment after the steps so far. */
export interface WalkModel {
  /** The last transactionStatus the bank showed. */
  last?: string;
  /** Its SCA ended (finalised or failed): another authorisation is refused. */
  scaEnded: boolean;
  cancelAsked: boolean;
  /** The steps so far, for the failure's message. */
  steps: string[];
}

/** The real side: the payment under walk. */
export interface WalkReal {
  payments: PaymentsClient;
  basePath: string;
}

const refusedPlainly = (res: ApiResponse) => refusedOf(res, ['authorisationId', 'paymentId']);

/** Reads the payment's status (or the payment) and holds it against the model: the payment walk's, and the cancellation walk's. */
export async function observePayment(
  m: WalkSteps & { last?: string },
  r: WalkReal,
  via: 'status' | 'read',
): Promise<void> {
  const res = via === 'status' ? await r.payments.status(r.basePath) : await r.payments.read(r.basePath);
  if (res.status >= 500) fail(m, `${via} answered a server error: ${res.describe()}`);
  if (res.status < 200 || res.status >= 300) fail(m, `${via} of the payment refused: ${res.describe()}`);
  const status = (res.body as { transactionStatus?: unknown } | undefined)?.transactionStatus;
  if (status === undefined && via === 'read') return;
  const next = String(status);
  const why = forbiddenMove(m.last, next);
  if (why) fail(m, `${why} (${res.label})`);
  m.last = next;
}

const { step, status, read } = walkStepsOf<WalkModel, WalkReal>(observePayment, 'payment');

const isFinal = (m: Readonly<WalkModel>) => m.last !== undefined && FINAL.has(m.last);

/** The walk's steps: each allowed where the model says the tables allow it, or a step they forbid. */
export function walkSteps(): fc.Arbitrary<fc.AsyncCommand<WalkModel, WalkReal>>[] {
  const authorise = step(
    'authorise',
    (m) => !m.scaEnded && !isFinal(m) && !m.cancelAsked,
    async (m, r) => {
      const sca = await r.payments.authorise(r.basePath);
      m.scaEnded = true;
      if (!['finalised', 'failed'].includes(sca.scaStatus)) fail(m, `the SCA ended ${sca.scaStatus}`);
    },
  );
  const authoriseAgain = step(
    'create another authorisation (forbidden: the SCA ended, no next signer awaited)',
    // A payment awaiting its next signer (PATC: a multilevel SCA) takes another authorisation.
    (m) => (m.scaEnded && m.last !== 'PATC') || isFinal(m),
    async (m, r) => {
      const res = await r.payments.sca.create(r.basePath, 'authorisations', r.payments.psuHeaders());
      if (!refusedPlainly(res))
        fail(m, `another authorisation of a payment whose SCA ended was not refused: ${res.describe()}`);
    },
  );
  const cancel = step(
    'cancel',
    (m) => !m.cancelAsked,
    async (m, r) => {
      const final = isFinal(m);
      m.cancelAsked = true;
      const res = await r.payments.cancel(r.basePath);
      if (res.status >= 500) fail(m, `cancel answered a server error: ${res.describe()}`);
      if (final && !refusedPlainly(res))
        fail(m, `cancel of a payment in final status ${m.last} was not refused: ${res.describe()}`);
    },
  );
  return [status, read, authorise, authorise, authoriseAgain, authoriseAgain, cancel].map((s) => fc.constant(s));
}

/** A fresh model, its first status the one initiate answered (the table: none → RCVD). */
export const freshModel = (initial: string | undefined): WalkModel => ({
  last: initial,
  scaEnded: false,
  cancelAsked: false,
  steps: ['initiate'],
});
