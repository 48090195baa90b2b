import { requireSuccess } from '../http/broken.js';
import { schemaRegistry } from '../values/schemas.js';
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

const consentIdOf = (body: unknown) => (body as { consentId?: unknown } | undefined)?.consentId;

/** A valid case judged: a 2xx with a consentId whose answer matches consents/consent-created; never a 5xx. */
export const consentAccepted = (consents: ConsentsClient) => async (v: ConsentCase) => {
  const body = consentBody(v);
  const res = await consents.create({ body: body as unknown as ConsentRequest });
  const what = `create consent ${JSON.stringify(body)}`;
  if (res.status >= 500) throw new Error(`${what}: expected no server error; got ${res.describe()}`);
  const id = res.status >= 200 && res.status < 300 ? consentIdOf(res.body) : undefined;
  if (typeof id !== 'string' || !id) throw new Error(`${what}: expected a 2xx with a consentId; got ${res.describe()}`);
  const problems = schemaRegistry().check('consents/consent-created', res.body);
  if (problems.length)
    throw new Error(
      `${what}: the answer does not match consents/consent-created: ${problems[0].path}: ${problems[0].message}`,
    );
};

/** A broken case judged: a 4xx carrying no consentId, beside its control (the valid consent, accepted once). */
export function consentRefused(consents: ConsentsClient) {
  let controlled = false;
  return async (b: BrokenConsent) => {
    if (!controlled) {
      const control = await consents.create({ body: validConsentBody() as unknown as ConsentRequest });
      requireSuccess(control, 'consents.create.response', 'create consent with the valid body (the control)');
      controlled = true;
    }
    const res = await consents.create({ body: brokenConsentBody(b) as unknown as ConsentRequest });
    const what = `create consent with ${b.path} ${b.value === undefined ? 'left out' : `= ${JSON.stringify(b.value)}`}`;
    if (res.status >= 500) throw new Error(`${what}: expected no server error; got ${res.describe()}`);
    if (res.status < 400 || res.status >= 500 || consentIdOf(res.body) !== undefined)
      throw new Error(`${what}: expected a refusal (HTTP 4xx carrying no consentId); got ${res.describe()}`);
  };
}
