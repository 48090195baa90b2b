import fc from 'fast-check';
import type { ConsentsClient } from '../areas/consents.js';
import type { ApiResponse } from '../http/response.js';
import { failWalk as fail, forbiddenIn, refusedPlainly, settles, walkStepsOf, type StatusOrder } from './walk.js';

/*
 * State walks over one consent: sequences of the operations the state tables name (read its status,
 * read it, authorise it, try another authorisation, delete it, delete it again), checked against a
 * model of the tables (States > Consent and Authorisation; reference-facts: consentStatus values,
 * a consent deleted reads rejected or terminatedByTpp, a final resource is not authorised again; a
 * consent whose SCA finalised may take another, as a multilevel SCA does):
 * every status the bank shows is one the model allows after the last one shown, nothing moves
 * backwards, a final status stays, a deleted consent never reads received or valid again, and
 * every step the tables forbid is refused.
 */

/** consentStatus in order: received, (partially authorised), valid; the ends of a consent are final. */
export const CONSENT_FINAL = new Set(['rejected', 'revokedByPsu', 'expired', 'terminatedByTpp']);
const ORDER: StatusOrder = {
  field: 'consentStatus',
  rank: { received: 0, partiallyAuthorised: 1, valid: 2, rejected: 3, revokedByPsu: 3, expired: 3, terminatedByTpp: 3 },
  final: CONSENT_FINAL,
};

/** Why `next` may not follow `last` for a consent, or undefined when it may. */
export const forbiddenConsentMove = (last: string | undefined, next: string) => forbiddenIn(ORDER, last, next);

/** The model: what the tables say of the consent after the steps so far. */
export interface ConsentWalkModel {
  last?: string;
  /** Its SCA ended (finalised or failed): the walk does not start another. */
  scaEnded: boolean;
  deleted: boolean;
  steps: string[];
}

/** The real side: the consent under walk and the SCA methods its creation offered. */
export interface ConsentWalkReal {
  consents: ConsentsClient;
  consentId: string;
  offered?: string[];
}

const isFinal = (m: Readonly<ConsentWalkModel>) => m.last !== undefined && CONSENT_FINAL.has(m.last);
const refused = (res: Parameters<typeof refusedPlainly>[0]) => refusedPlainly(res, ['authorisationId', 'consentId']);

/** Reads the status and holds it against the model; a deleted consent may be gone (a 4xx). */
async function observe(m: ConsentWalkModel, r: ConsentWalkReal, via: 'status' | 'read'): Promise<void> {
  const res = via === 'status' ? await r.consents.status(r.consentId) : await r.consents.read(r.consentId);
  if (res.status >= 500) fail(m, `${via} answered a server error: ${res.describe()}`);
  if (m.deleted && res.status >= 400 && res.status < 500) return;
  if (res.status < 200 || res.status >= 300) fail(m, `${via} of the consent refused: ${res.describe()}`);
  const status = (res.body as { consentStatus?: unknown } | undefined)?.consentStatus;
  if (status === undefined && via === 'read') return;
  const next = String(status);
  const why = forbiddenConsentMove(m.last, next);
  if (why) fail(m, `${why} (${res.label})`);
  if (m.deleted && !CONSENT_FINAL.has(next)) fail(m, `the deleted consent reads ${next} (${res.label})`);
  m.last = next;
}

const { step, status, read } = walkStepsOf<ConsentWalkModel, ConsentWalkReal>(observe, 'consent');

const statusIn = (res: ApiResponse) => String((res.body as { consentStatus?: unknown } | undefined)?.consentStatus);

/** Waits (timeouts.scaMs) for the consent's status to settle after a step: `settled` of the status answer. */
const settle = (r: ConsentWalkReal, settled: (res: ApiResponse) => boolean) =>
  settles(() => r.consents.status(r.consentId), settled, r.consents.api.target.timeouts.scaMs);

const remove = step(
  'delete',
  (m) => !m.deleted,
  async (m, r) => {
    m.deleted = true;
    const res = await r.consents.delete(r.consentId);
    if (res.status < 200 || res.status >= 300) fail(m, `delete of the consent was not accepted: ${res.describe()}`);
    // A deleted consent is gone or final, maybe a moment later.
    await settle(r, (s) => (s.status >= 400 && s.status < 500) || CONSENT_FINAL.has(statusIn(s)));
  },
);

/**
 * Starts a walk from a consent deleted (drawn for a third of the walks): the steps a deleted
 * consent forbids (another authorisation, a second delete) are then tried in most walks, not only
 * in those that happen to delete it on the way.
 */
export const deleteFirst = (m: ConsentWalkModel, r: ConsentWalkReal) => remove.run(m, r);

/** The walk's steps: each allowed where the model says the tables allow it, or a step they forbid. */
export function consentWalkSteps(): fc.Arbitrary<fc.AsyncCommand<ConsentWalkModel, ConsentWalkReal>>[] {
  const authorise = step(
    'authorise',
    (m) => !m.scaEnded && !isFinal(m) && !m.deleted,
    async (m, r) => {
      const base = r.consents.basePath(r.consentId);
      const sca = await r.consents.sca.authorise(base, { headers: r.consents.psuHeaders(), offered: r.offered });
      m.scaEnded = true;
      if (!['finalised', 'failed'].includes(sca.scaStatus)) fail(m, `the SCA ended ${sca.scaStatus}`);
      // The consent's status follows its SCA, maybe a moment later.
      await settle(r, (s) => s.status >= 400 || statusIn(s) !== 'received');
    },
  );
  const authoriseAgain = step(
    'create another authorisation (forbidden: the consent is final or deleted)',
    (m) => isFinal(m) || m.deleted,
    async (m, r) => {
      const base = r.consents.basePath(r.consentId);
      const res = await r.consents.sca.create(base, 'authorisations', r.consents.psuHeaders());
      if (!refused(res))
        fail(
          m,
          `another authorisation of a consent ${m.deleted ? 'deleted' : m.last} was not refused: ${res.describe()}`,
        );
    },
  );
  const removeAgain = step(
    'delete again (forbidden: deleted)',
    (m) => m.deleted,
    async (m, r) => {
      const res = await r.consents.delete(r.consentId);
      if (!refused(res)) fail(m, `a second delete of the consent was not refused: ${res.describe()}`);
    },
  );
  // The forbidden steps and the delete weigh twice: a walk reaches a final consent and tries it more often.
  return [status, read, authorise, authoriseAgain, authoriseAgain, remove, remove, removeAgain].map((s) =>
    fc.constant(s),
  );
}

/** A fresh model, its first status the one create answered (the table: none → received). */
export const freshConsentModel = (initial: string | undefined): ConsentWalkModel => ({
  last: initial,
  scaEnded: false,
  deleted: false,
  steps: ['create'],
});
