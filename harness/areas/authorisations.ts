import type { SchemaType } from '../../schemas/index.js';
import { block, requireSuccess } from '../http/broken.js';
import type { HeaderSpec } from '../http/client.js';
import type { ApiResponse } from '../http/response.js';
import { ConsentsClient, consentRequest, test as consentsTest } from './consents.js';

export { because, expect, req } from '../test.js';
export { consentRequest } from './consents.js';

export type ScaMethod = SchemaType<'authorisations/sca-method'>;

export interface Begun {
  consentId: string;
  resourceBasePath: string;
  authorisationId: string;
  /** The authorisation's path: <resourceBasePath>/authorisations/<authorisationId>. */
  href: string;
  created: ApiResponse;
  started?: ApiResponse;
  methods: ScaMethod[];
}

/**
 * The authorisation sub-resources (endpoint section F) on a fresh consent: the consent is the
 * resource every target offers, and the flows are the same on any resourceBasePath.
 */
export class AuthorisationsClient {
  constructor(readonly consents: ConsentsClient) {}

  get sca() {
    return this.consents.sca;
  }
  get target() {
    return this.consents.api.target;
  }

  /** Decoupled headers of the flow guide (TPP-Redirect-Preferred false) with the PSU's identification. */
  headers(extra: HeaderSpec = {}): HeaderSpec {
    return { ...this.consents.psuHeaders(), 'TPP-Redirect-Preferred': 'false', ...extra };
  }

  /** A new consent (optionally of another PSU) and an authorisation on it, started with `method` when given. */
  async begin(o: { method?: string; psuId?: string; headers?: HeaderSpec } = {}): Promise<Begun> {
    // sca.methods: the methods the bank offers; a check of another method is not claimed.
    const claimedMethods = this.target.profile.sca?.methods;
    if (o.method && claimedMethods && !claimedMethods.includes(o.method))
      test.skip(true, `not claimed: sca.methods of the profile lists ${claimedMethods.join(', ')}, not ${o.method}`);
    const psu: HeaderSpec = o.psuId ? { 'PSU-ID': o.psuId } : {};
    const res = await this.consents.create({
      body: consentRequest({ recurringIndicator: false, frequencyPerDay: 1 }),
      headers: psu,
    });
    requireSuccess(res, 'consents.create.response', 'create consent');
    const consentId = res.json<{ consentId: string }>().consentId;
    const resourceBasePath = this.consents.basePath(consentId);
    const headers = this.headers({ ...psu, ...o.headers });
    const created = await this.sca.create(resourceBasePath, 'authorisations', headers);
    requireSuccess(created, 'authorisations.create.response', 'create authorisation');
    const body = created.json<{ authorisationId: string; scaMethods?: ScaMethod[] }>();
    // A bank that offers no SCA method blocks the checks of the SCA (none is fed a method it never offered).
    if (!(body.scaMethods ?? []).length)
      block('authorisations.create.response', 'an SCA method offered', `no scaMethods in ${created.describe()}`);
    const href = `${resourceBasePath}/authorisations/${body.authorisationId}`;
    const begun: Begun = {
      consentId,
      resourceBasePath,
      authorisationId: body.authorisationId,
      href,
      created,
      methods: body.scaMethods ?? [],
    };
    if (o.method) begun.started = await this.sca.start(href, o.method, headers);
    return begun;
  }
}

/** Adds `authorisations` (over the consents client, which deletes its consents at teardown). */
export const test = consentsTest.extend<{ authorisations: AuthorisationsClient }>({
  authorisations: async ({ consents }, use) => {
    await use(new AuthorisationsClient(consents));
  },
});
