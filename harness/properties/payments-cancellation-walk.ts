import fc from 'fast-check';
import { requireSuccess } from '../http/broken.js';
import type { ApiResponse } from '../http/response.js';
import { label, type Combination, type PaymentsClient } from '../areas/payments.js';
import { FINAL, observePayment, type WalkReal } from './payments-walk.js';
import { failWalk as fail, refusedPlainly, walkStepsOf, type WalkSteps } from './walk.js';

/*
 * State walks over one payment's cancellation: a payment (authorised first, or not) whose
 * cancellation was asked for (DELETE), then sequences of the operations the tables name on it (read
 * its status, read it, authorise the cancellation, read the cancellation authorisation's SCA status,
 * list the cancellation authorisations, try another cancellation authorisation, cancel it again),
 * checked against a model of the tables (States > Payment, basket and cancellation: one table, the
 * payment walk's order; endpoint section D: the cancellation authorisations and cancellationIds;
 * reference-facts: an SCA's terminal statuses, a final resource or an SCA already finalised is not
 * authorised again): every status the bank shows follows the last one, nothing moves back, a final
 * status stays, every cancellation authorisation created is listed and its ended SCA stays ended,
 * and every step the tables forbid is refused. Where they are silent (another cancel while the
 * cancellation awaits its authorisation) only a 5xx fails.
 */

/** The model: what the tables say of the payment and its cancellation after the steps so far. */
export interface CancellationWalkModel extends WalkSteps {
  /** The last transactionStatus the bank showed. */
  last?: string;
  /** The walk authorises the cancellation: the profile lists the product in payments.cancellationAuthorisation. */
  authorisable: boolean;
  /** The cancellation authorisations created: each one's id and the scaStatus its SCA ended with. */
  created: Map<string, string>;
  /** The cancellation's SCA ended (finalised or failed): the walk does not authorise it again. */
  scaEnded: boolean;
  /** Its SCA ended finalised: another cancellation authorisation is refused ("an SCA already finalised"). */
  scaFinalised: boolean;
  /**
   * A corporate context: a start authorisation is "Repeated once per required SCA" there, so a
   * finalised SCA alone does not forbid another (a next signer's); a final status still does.
   */
  corporate: boolean;
}

const isFinal = (m: Readonly<CancellationWalkModel>) => m.last !== undefined && FINAL.has(m.last);
const refused = (res: ApiResponse) => refusedPlainly(res, ['authorisationId', 'paymentId']);
const cancellations = (r: WalkReal) => `${r.basePath}/cancellation-authorisations`;

function noServerError(m: CancellationWalkModel, res: ApiResponse, what: string): void {
  if (res.status >= 500) fail(m, `${what} answered a server error: ${res.describe()}`);
}

const { step, status, read } = walkStepsOf<CancellationWalkModel, WalkReal>(observePayment, 'payment');

/** Authorise the payment (its SCA driven to the end): where half the walks start, before the cancel. */
const authorisePayment = step(
  'authorise the payment',
  (m) => !isFinal(m),
  async (m, r) => {
    const sca = await r.payments.authorise(r.basePath);
    if (!['finalised', 'failed'].includes(sca.scaStatus)) fail(m, `the payment's SCA ended ${sca.scaStatus}`);
  },
);

/**
 * Cancel it (DELETE): where every walk starts. A payment in a final status refuses it; any other
 * accepts it (States: "allowed by the product and its time limits"; a refusal blocks the walk,
 * naming the requirement that judges that cancel accepted).
 */
const cancelFirst = (root: string) =>
  step(
    'cancel',
    () => true,
    async (m, r) => {
      const final = isFinal(m);
      const res = await r.payments.cancel(r.basePath);
      noServerError(m, res, 'cancel');
      if (final) {
        if (!refused(res)) fail(m, `cancel of a payment in final status ${m.last} was not refused: ${res.describe()}`);
        return;
      }
      requireSuccess(res, root, 'cancel the payment');
    },
  );

/** Authorise the cancellation: create a cancellation authorisation and drive its SCA to the end. */
const authoriseCancellation = step(
  'authorise the cancellation',
  (m) => m.authorisable && !m.scaEnded && !isFinal(m),
  async (m, r) => {
    const sca = await r.payments.authorise(r.basePath, {
      sub: 'cancellation-authorisations',
      roots: { create: 'payments.cancel.authorisations' },
    });
    m.scaEnded = true;
    m.created.set(sca.authorisationId, sca.scaStatus);
    if (sca.scaStatus === 'finalised') m.scaFinalised = true;
    else if (sca.scaStatus !== 'failed') fail(m, `the cancellation's SCA ended ${sca.scaStatus}`);
  },
);

/** Read each cancellation authorisation's SCA status: the terminal status its SCA ended with (reference-facts: terminal). */
const scaStatus = step(
  'read the cancellation SCA status',
  (m) => m.created.size > 0,
  async (m, r) => {
    for (const [id, ended] of m.created) {
      const res = await r.payments.sca.status(`${cancellations(r)}/${id}`);
      noServerError(m, res, 'the cancellation SCA status');
      if (res.status < 200 || res.status >= 300)
        fail(m, `the SCA status of cancellation authorisation ${id} was refused: ${res.describe()}`);
      const now = (res.body as { scaStatus?: unknown } | undefined)?.scaStatus;
      if (now !== ended)
        fail(
          m,
          `the SCA of cancellation authorisation ${id} ended ${ended}, a terminal status, and now reads ${JSON.stringify(now)} (${res.label})`,
        );
    }
  },
);

/** List the cancellation authorisations: cancellationIds holds every one created. */
const list = step(
  'list the cancellation authorisations',
  (m) => m.created.size > 0,
  async (m, r) => {
    const res = await r.payments.api.get(cancellations(r));
    noServerError(m, res, 'the list of cancellation authorisations');
    if (res.status < 200 || res.status >= 300)
      fail(m, `the list of cancellation authorisations was refused: ${res.describe()}`);
    const ids = (res.body as { cancellationIds?: unknown } | undefined)?.cancellationIds;
    const missing = [...m.created.keys()].filter((id) => !Array.isArray(ids) || !ids.includes(id));
    if (missing.length) fail(m, `cancellationIds lacks ${missing.join(', ')}, created in this walk: ${res.describe()}`);
  },
);

/** Another cancellation authorisation once the cancellation's SCA finalised or the payment is final: refused. */
const authoriseAgain = step(
  'create another cancellation authorisation (forbidden: the cancellation SCA finalised or the payment is final)',
  (m) => (m.scaFinalised && !m.corporate) || isFinal(m),
  async (m, r) => {
    const res = await r.payments.sca.create(r.basePath, 'cancellation-authorisations', r.payments.psuHeaders());
    noServerError(m, res, 'create another cancellation authorisation');
    if (!refused(res))
      fail(
        m,
        `another cancellation authorisation of a payment ${m.scaFinalised ? 'whose cancellation SCA finalised' : `in final status ${m.last}`} was not refused: ${res.describe()}`,
      );
  },
);

/** Cancel it again while it is not final (the tables are silent): any answer but a 5xx. */
const cancelAgain = step(
  'cancel again',
  (m) => !isFinal(m),
  async (m, r) => noServerError(m, await r.payments.cancel(r.basePath), 'cancel again'),
);

/** Cancel it again once final: refused. */
const cancelFinal = step(
  'cancel again (forbidden: final)',
  (m) => isFinal(m),
  async (m, r) => {
    const res = await r.payments.cancel(r.basePath);
    noServerError(m, res, 'cancel again');
    if (!refused(res)) fail(m, `cancel of a payment in final status ${m.last} was not refused: ${res.describe()}`);
  },
);

/**
 * The walk's steps, each allowed where the model says the tables allow it, or a step they forbid.
 * `authorisations`: the profile claims cancellation authorisations (feature
 * payments.cancellation-authorisation and a claimed product listed): without them, no step
 * creates one, since a refused one would stand beside no accepted one.
 */
export function cancellationWalkSteps(
  authorisations: boolean,
): fc.Arbitrary<fc.AsyncCommand<CancellationWalkModel, WalkReal>>[] {
  // The cancellation's authorisation and another one weigh thrice, a cancel once final twice: most
  // walks reach the authorised cancellation and try what it forbids.
  const steps = authorisations
    ? [
        status,
        read,
        authoriseCancellation,
        authoriseCancellation,
        authoriseCancellation,
        scaStatus,
        list,
        authoriseAgain,
        authoriseAgain,
        authoriseAgain,
        cancelAgain,
        cancelFinal,
        cancelFinal,
      ]
    : [status, read, cancelAgain, cancelFinal, cancelFinal];
  return steps.map((s) => fc.constant(s));
}

/**
 * One walk's input: the payment's kind, whether it is authorised before its cancel, whether its
 * cancellation is authorised right after the cancel (where the walk authorises it), the steps then.
 */
export interface CancellationWalk {
  combination: Combination;
  authorised: boolean;
  cancellationAuthorised: boolean;
  steps: Iterable<fc.AsyncCommand<CancellationWalkModel, WalkReal>>;
}

/**
 * Runs one walk: initiates a payment of the combination, authorises it first where drawn, asks for
 * its cancellation, authorises that where drawn (so that the steps an authorised cancellation
 * forbids are tried in most walks, not only in the longer ones), then runs the steps.
 * `authorisations` as for cancellationWalkSteps.
 */
export async function walkCancellation(
  payments: PaymentsClient,
  { combination, authorised, cancellationAuthorised, steps }: CancellationWalk,
  authorisations: boolean,
): Promise<void> {
  const { basePath, res } = await payments.initiated(combination);
  const model: CancellationWalkModel = {
    last: (res.body as { transactionStatus?: string } | undefined)?.transactionStatus,
    authorisable: authorisations && payments.needsCancellationAuthorisation(combination),
    created: new Map(),
    scaEnded: false,
    scaFinalised: false,
    corporate: payments.context === 'corporate',
    steps: ['initiate'],
  };
  const real = { payments, basePath };
  try {
    if (authorised) await authorisePayment.run(model, real);
    const root = authorised ? 'payments.cancel.authorised-future-dated' : 'payments.cancel.response';
    await cancelFirst(root).run(model, real);
    if (cancellationAuthorised && authoriseCancellation.check(model)) await authoriseCancellation.run(model, real);
    await fc.asyncModelRun(() => ({ model, real }), steps);
  } catch (e) {
    // A walk's failure names the payment's kind; a blocked step or a broken target stays as it is.
    if (e instanceof Error && e.message.startsWith('after ')) e.message = `${label(combination)}: ${e.message}`;
    throw e;
  }
}
