import { holds } from '../values/json.js';
import { consentDeclines } from '../areas/value-spaces.js';
import { requireSuccess } from '../http/broken.js';
import { acceptedWith, controlsOnce, declinedOnce, idIn, noServerError, readBack, refusedWithout } from './judge.js';
import { ConsentsClient, test as base, type ConsentRequest } from '../areas/consents.js';
import {
  brokenConsentBody,
  consentBody,
  validConsentBody,
  type BrokenConsent,
  type ConsentCase,
} from './consents-cases.js';
import { type Depth } from './settings.js';
import { depthFixture } from './test.js';

export { because, expect, req } from '../test.js';

/*
 * The generated consent properties: their fixtures (the consent client with a 5xx an answer to
 * judge, the depth) and their judgements.
 */

/** The consents' fixtures with the generated phase's depth (skipped before the body when it is off). */
export const test = base.extend<{ depth: Depth }>({
  consents: [
    async ({ consents }, use) => {
      await use(new ConsentsClient(consents.api.with({ allow5xx: true }), consents.created, consents.context));
    },
    { scope: 'test', box: 'self' },
  ],
  depth: depthFixture,
});

/**
 * A valid case judged: a 2xx with a consentId whose answer matches consents/consent-created, or
 * declined where the case falls in a may-decline space (a combined session, references to accounts)
 * beside the valid consent accepted; never a 5xx.
 */
export const consentAccepted = (consents: ConsentsClient) => {
  const declined = declinedOnce();
  return async (v: ConsentCase) => {
    const body = consentBody(v);
    const what = `create consent ${JSON.stringify(body)}`;
    const res = await consents.create({ body: body as unknown as ConsentRequest });
    const declines = consentDeclines(consents.api.target.profile, body);
    if (await declined(res, declines, 'consentId', what, () => baseline(consents))) return;
    acceptedWith(res, what, 'consentId', 'consents/consent-created');
  };
};

/** The baseline of create consent: the valid body every check sends (no combined session, the accounts the bank offers). */
const baseline = (consents: ConsentsClient) =>
  consents.create({ body: validConsentBody() as unknown as ConsentRequest });

/** A broken case judged: a 4xx carrying no consentId, beside its control (the valid consent, accepted once). */
export function consentRefused(consents: ConsentsClient) {
  const control = controlsOnce();
  return async (b: BrokenConsent) => {
    await control('consent', () => consents.create({ body: validConsentBody() as unknown as ConsentRequest }));
    const res = await consents.create({ body: brokenConsentBody(b) as unknown as ConsentRequest });
    const what = `create consent with ${b.path} ${b.value === undefined ? 'left out' : `= ${JSON.stringify(b.value)}`}`;
    refusedWithout(res, what, 'consentId');
  };
}

/** The read-consent answer's fields the create request's values are held against. */
interface ReadConsent {
  access?: Record<string, unknown>;
  recurringIndicator?: unknown;
  frequencyPerDay?: unknown;
}

/** Each reference sent in a list held by one read back (in any order, fields the bank adds allowed); the ones not held. */
function referencesLost(sent: unknown[], read: unknown): unknown[] {
  const left = Array.isArray(read) ? [...(read as unknown[])] : [];
  return sent.filter((ref) => {
    const at = left.findIndex((r) => holds(ref, r));
    if (at >= 0) left.splice(at, 1);
    return at < 0;
  });
}

/** How the consent read back differs from the create request (consents.read.fields: the fields, when given). */
function readBackDifferences(sent: ReturnType<typeof consentBody>, got: ReadConsent): string[] {
  const diffs: string[] = [];
  for (const field of ['recurringIndicator', 'frequencyPerDay'] as const)
    if (got[field] !== undefined && got[field] !== sent[field])
      diffs.push(`${field}: sent ${JSON.stringify(sent[field])}, read ${JSON.stringify(got[field])}`);
  if (got.access !== undefined) {
    const access = sent.access as Record<string, unknown[]>;
    for (const list of ['balances', 'transactions']) {
      const lost = referencesLost(access[list], got.access[list]);
      if (lost.length)
        diffs.push(
          `access.${list}: ${lost.map((r) => JSON.stringify(r)).join(', ')} sent, not read back (read ${JSON.stringify(got.access[list])})`,
        );
    }
  }
  return diffs;
}

/**
 * A valid case read back (consents.read.fields): recurringIndicator, frequencyPerDay and every
 * account reference of each access list as created, when the read gives them; validUntil is the
 * adjusted date (consents.valid-until.*). A refused create blocks it, naming consents.create.response.
 */
export const consentReadsBack = (consents: ConsentsClient) => {
  const declined = declinedOnce();
  return async (v: ConsentCase) => {
    const body = consentBody(v);
    const what = `create consent ${JSON.stringify(body)}`;
    const res = await consents.create({ body: body as unknown as ConsentRequest });
    // A case a bank may decline (references to accounts the PSU may not hold) is not read back.
    const declines = consentDeclines(consents.api.target.profile, body);
    if (await declined(res, declines, 'consentId', what, () => baseline(consents))) return;
    noServerError(res, what);
    requireSuccess(res, 'consents.create.response', what);
    const read = readBack(await consents.read(String(idIn(res, 'consentId'))), what);
    const diffs = readBackDifferences(body, read.json<ReadConsent>());
    if (diffs.length) throw new Error(`${what}: read back other than sent: ${diffs.join('; ')}`);
  };
};
