import type { SchemaType } from '../../schemas/index.js';
import type { HeaderSpec } from '../http/client.js';
import { block, prerequisite, requireSuccess } from '../http/broken.js';
import type { ApiResponse } from '../http/response.js';
import { findBankAuthorisation } from '../sca/driver.js';
import { boxed, expect } from '../test.js';
import { ConsentsClient, consentRequest, test as consentsTest } from './consents.js';

export { because, expect, req } from '../test.js';
export { consentRequest } from './consents.js';
/** The authorisation the bank created itself on a resource (the list lookup of the SCA driver). */
export { findBankAuthorisation } from '../sca/driver.js';

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
  /**
   * The bank refused the explicit create and the authorisation is the one it created itself after
   * create consent, found in the authorisation list ("The bank may create the authorisation
   * automatically after create consent", section B); `created` is then the refusal, and `methods`
   * the scaMethods of the create-consent answer, if it gave any.
   */
  bankCreated?: boolean;
}

/** "The bank may create the authorisation automatically after create consent" (endpoint section B). */
export const BANK_CREATES =
  'not applicable: the bank created the authorisation itself after create consent and refused a second one ("The bank may create the authorisation automatically after create consent", section B), so there is no create-authorisation answer to judge';

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
    let begun: Begun;
    if (created.status >= 200 && created.status < 300) {
      const body = created.json<{ authorisationId: string; scaMethods?: ScaMethod[] }>();
      begun = {
        consentId,
        resourceBasePath,
        authorisationId: body.authorisationId,
        href: `${resourceBasePath}/authorisations/${body.authorisationId}`,
        created,
        methods: body.scaMethods ?? [],
      };
    } else {
      // A bank that created the authorisation itself may refuse a second one: the suite takes the bank's.
      const own =
        created.status >= 400 && created.status < 500
          ? await findBankAuthorisation(this.consents.api, resourceBasePath, headers)
          : undefined;
      if (!own)
        block(
          'authorisations.create.response',
          'create authorisation',
          `expected a 2xx, or a refusal beside an authorisation the bank created itself; got ${created.describe()}`,
        );
      begun = {
        consentId,
        resourceBasePath,
        authorisationId: own,
        href: `${resourceBasePath}/authorisations/${own}`,
        created,
        methods: (res.body as { scaMethods?: ScaMethod[] } | undefined)?.scaMethods ?? [],
        bankCreated: true,
      };
    }
    if (o.method) {
      // Never a method the bank did not offer: blocked by the answer that offers them.
      const method = await offeredMethod(
        begun,
        (methods) => methods.find((m) => m.authenticationMethodId === o.method)?.authenticationMethodId,
        `a start with ${o.method}`,
        OFFERED_BY[o.method],
      );
      begun.started = await this.sca.start(begun.href, method, headers);
    }
    return begun;
  }

  /**
   * A new consent and an authorisation started with the decoupled method of the PSU's own device
   * (mbid_same_device, or mbid if the former is not offered: section F); blocked when the bank
   * offers neither.
   */
  async beginSameDevice(): Promise<Begun & { method: string; started: ApiResponse }> {
    const b = await this.begin();
    const method = await offeredMethod(
      b,
      sameDeviceMethod,
      'the decoupled flow on the same device (mbid_same_device or mbid)',
    );
    const started = await this.sca.start(b.href, method, this.headers());
    return { ...b, method, started };
  }
}

/**
 * The method of the decoupled flow on the PSU's own device (endpoint section F: "`mbid_same_device`
 * (or `mbid` if the former is not offered)"), among the methods the bank offers; undefined when it
 * offers neither.
 */
export function sameDeviceMethod(methods: ScaMethod[]): string | undefined {
  const ids = methods.map((m) => m.authenticationMethodId);
  return ['mbid_same_device', 'mbid'].find((id) => ids.includes(id));
}

/**
 * The requirement that judges a claimed method offered, where one does beside the answer that
 * gives scaMethods: the animated QR's two ids are offered together (endpoint section F).
 */
const OFFERED_BY: Record<string, string> = {
  mbid_animated_qr_token: 'authorisations.qr.both-ids',
  mbid_animated_qr_image: 'authorisations.qr.both-ids',
};

/**
 * The method `pick` chooses among those the bank offered on `b`; a bank that offers none of
 * them blocks the check (by `offeredBy`: the requirement that judges it offered, else
 * authorisations.create.response, which gives scaMethods) rather than the suite starting a method
 * of its own choosing.
 */
export function offeredMethod(
  b: Begun,
  pick: (methods: ScaMethod[]) => string | undefined,
  what: string,
  offeredBy = 'authorisations.create.response',
): Promise<string> {
  return prerequisite(offeredBy, `an SCA method offered for ${what}`, async () => {
    const method = pick(b.methods);
    expect(
      method,
      `scaMethods offers no method for ${what} (offered: ${b.methods.map((m) => m.authenticationMethodId).join(', ') || 'none'}): ${b.created.describe()}`,
    ).toBeTruthy();
    return method!;
  });
}

/** Adds `authorisations` (over the consents client, which deletes its consents at teardown). */
export const test = consentsTest.extend<{ authorisations: AuthorisationsClient }>({
  authorisations: boxed(async ({ consents }, use) => {
    await use(new AuthorisationsClient(consents));
  }),
});
