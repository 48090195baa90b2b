import { holds } from '../values/json.js';
import { acceptedWith, controlsOnce, createdAndRead, idIn, refusedWithout } from './judge.js';
import { ConsentsClient, test as base, type ConsentRequest } from '../areas/consents.js';
import {
  brokenConsentBody,
  consentBody,
  validConsentBody,
  type BrokenConsent,
  type ConsentCase,
} from './consent-cases.js';
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

/** A valid case judged: a 2xx with a consentId whose answer matches consents/consent-created; never a 5xx. */
export const consentAccepted = (consents: ConsentsClient) => async (v: ConsentCase) => {
  const body = consentBody(v);
  const res = await consents.create({ body: body as unknown as ConsentRequest });
  acceptedWith(res, `create consent ${JSON.stringify(body)}`, 'consentId', 'consents/consent-created');
};

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
export const consentReadsBack = (consents: ConsentsClient) => async (v: ConsentCase) => {
  const body = consentBody(v);
  const what = `create consent ${JSON.stringify(body)}`;
  const read = await createdAndRead(
    what,
    'consents.create.response',
    () => consents.create({ body: body as unknown as ConsentRequest }),
    (res) => consents.read(String(idIn(res, 'consentId'))),
  );
  const diffs = readBackDifferences(body, read.json<ReadConsent>());
  if (diffs.length) throw new Error(`${what}: read back other than sent: ${diffs.join('; ')}`);
};
