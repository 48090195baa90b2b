import { isoDate } from '../values/dates.js';
import type { SchemaType } from '../../schemas/index.js';
import type { ApiClient, HeaderSpec } from '../http/client.js';
import type { ApiResponse } from '../http/response.js';
import { block, Blocked, prerequisite } from '../http/broken.js';
import { ScaDriver, type AuthoriseOptions, type ScaOutcome } from '../sca/driver.js';
import { boxed, expect, test as base } from '../test.js';

export { because, expect, req } from '../test.js';

// The bodies, as their schemas (schemas/common, schemas/consents) state them.
export type AccountReference = SchemaType<'common/account-reference'>;
export type ConsentRequest = SchemaType<'consents/consent-request'>;

/** A valid create-consent body; access with empty arrays asks for the accounts the bank offers. */
export function consentRequest(overrides: Partial<ConsentRequest> = {}): ConsentRequest {
  return {
    access: { balances: [], transactions: [] },
    recurringIndicator: true,
    validUntil: isoDate(30),
    frequencyPerDay: 4,
    combinedServiceIndicator: false,
    ...overrides,
  };
}

export interface CreateOptions {
  body?: ConsentRequest;
  headers?: HeaderSpec;
  /** X-Consent-Type; sepaDirectDebit creates a direct debit consent. */
  consentType?: 'sepaDirectDebit';
}

/** Consent service (endpoint section B) with the PSU headers of the profile's context. */
export class ConsentsClient {
  /** Consents this test created (`created`, shared with its corporate() twin): deleted when it ends. */
  readonly sca: ScaDriver;

  constructor(
    readonly api: ApiClient,
    readonly created: string[] = [],
    readonly context: 'private' | 'corporate' = api.target.profile.psuContext,
  ) {
    const t = api.target;
    // A consent's start authorisation has no body (section B): payments.startAuthorisationBody is the payment's.
    this.sca = new ScaDriver(api, t.timeouts.scaMs);
  }

  /** The same client in a corporate context (token scope accountinformation corporate, PSU-Corporate-ID). */
  corporate(): ConsentsClient {
    return new ConsentsClient(this.api.with({ scope: 'accountinformation corporate' }), this.created, 'corporate');
  }

  get path(): string {
    return this.api.target.profile.paths.consents;
  }

  basePath(consentId: string): string {
    return `${this.path}/${consentId}`;
  }

  /** PSU headers for a PSU-present call in the profile's context. */
  psuHeaders(): HeaderSpec {
    const t = this.api.target;
    return {
      ...(t.psuId ? { 'PSU-ID': t.psuId } : {}),
      ...(this.context === 'corporate' && t.psuCorporateId ? { 'PSU-Corporate-ID': t.psuCorporateId } : {}),
      'PSU-IP-Address': t.psuIpAddress,
    };
  }

  async create(o: CreateOptions = {}): Promise<ApiResponse> {
    const res = await this.api.post(this.path, {
      json: o.body ?? consentRequest(),
      headers: { ...this.psuHeaders(), ...(o.consentType ? { 'X-Consent-Type': o.consentType } : {}), ...o.headers },
    });
    const id =
      res.status >= 200 && res.status < 300 ? (res.body as { consentId?: string } | undefined)?.consentId : undefined;
    if (id) this.created.push(id);
    return res;
  }

  read(consentId: string, headers?: HeaderSpec) {
    return this.api.get(this.basePath(consentId), { headers });
  }
  status(consentId: string, headers?: HeaderSpec) {
    return this.api.get(`${this.basePath(consentId)}/status`, { headers });
  }
  delete(consentId: string, headers?: HeaderSpec) {
    return this.api.delete(this.basePath(consentId), { headers });
  }

  /**
   * The consent's consentStatus: read consent's when it gives one (it is listed there, not required),
   * else the consent status operation's, which exists to return it.
   */
  async consentStatus(consentId: string, headers?: HeaderSpec): Promise<string | undefined> {
    const read = (await this.read(consentId, headers)).body as { consentStatus?: unknown } | undefined;
    if (typeof read?.consentStatus === 'string') return read.consentStatus;
    return ((await this.status(consentId, headers)).body as { consentStatus?: string } | undefined)?.consentStatus;
  }

  /**
   * Waits for the consent's status to settle into `expected` (one or several): a status that follows
   * an SCA, a deletion or a confirmation may come a moment later (the tables say what it becomes, not
   * within what time), so it is polled within the profile's SCA timeout (timeouts.scaMs) before it
   * is judged; fails with `message` and the last status read.
   */
  async statusSettles(consentId: string, expected: string | string[], message: string, headers?: HeaderSpec) {
    const want = [expected].flat();
    await expect
      .poll(async () => (await this.consentStatus(consentId, headers)) ?? '(none)', {
        message,
        intervals: [250, 500, 1000],
        timeout: this.api.target.timeouts.scaMs,
      })
      .toMatch(new RegExp(`^(${want.join('|')})$`));
  }

  /**
   * A consent created as a step of another check: a create the bank refuses blocks that check
   * (consents.create.response judges the answer itself). Returns the answer and the consentId.
   */
  async createdForStep(o: CreateOptions & { createdBy?: string } = {}): Promise<ApiResponse & { consentId: string }> {
    const res = await this.create(o);
    const consentId = await prerequisite(o.createdBy ?? 'consents.create.response', 'create the consent', async () => {
      expect(res).toSucceed();
      const id = res.json<{ consentId?: string }>().consentId;
      expect(id, `create consent: a consentId; got ${res.describe()}`).toBeTruthy();
      return id!;
    });
    return Object.assign(res, { consentId });
  }

  /** Creates a consent and drives its SCA to the end (decoupled); returns the consent id and the SCA outcome. */
  async createAuthorised(
    o: CreateOptions & { sca?: AuthoriseOptions; createdBy?: string } = {},
  ): Promise<{ consentId: string; sca: ScaOutcome }> {
    // A step other checks build on: its exact answer is judged by consents.create.response itself
    // (or by `createdBy`, the requirement that judges the creation of a body like this one).
    const res = await this.createdForStep(o);
    const { consentId } = res;
    // scaMethods of the create-consent answer: the methods of an authorisation the bank created itself.
    const offered = (res.body as { scaMethods?: { authenticationMethodId?: string }[] } | undefined)?.scaMethods
      ?.map((m) => m.authenticationMethodId)
      .filter((id): id is string => typeof id === 'string');
    const sca = await this.sca.authorise(this.basePath(consentId), { headers: this.psuHeaders(), offered, ...o.sca });
    return { consentId, sca };
  }

  /**
   * A valid consent for checks that read under one (account information): created, then authorised
   * by the decoupled SCA, unless the bank answers it valid at once. A check that needs a valid
   * consent needs only that: where the SCA does not finalise (no method offered, an authorisation
   * route that fails) but the consent reads valid anyway, the check is judged against it; it is
   * blocked only when the consent never becomes valid, by the step that failed.
   */
  async createValid(o: CreateOptions & { sca?: AuthoriseOptions } = {}): Promise<string> {
    const res = await this.createdForStep(o);
    const { consentId } = res;
    if ((res.body as { consentStatus?: unknown } | undefined)?.consentStatus === 'valid') return consentId;
    const offered = (res.body as { scaMethods?: { authenticationMethodId?: string }[] } | undefined)?.scaMethods
      ?.map((m) => m.authenticationMethodId)
      .filter((id): id is string => typeof id === 'string');
    let failure: Blocked | undefined;
    let ended = '';
    try {
      const sca = await this.sca.authorise(this.basePath(consentId), { headers: this.psuHeaders(), offered, ...o.sca });
      if (sca.scaStatus === 'finalised') {
        // Its status may follow the SCA a moment later: awaited (consents.state.valid-after-sca's rule).
        await prerequisite('consents.state.valid-after-sca', 'the consent turns valid after its SCA', () =>
          this.statusSettles(consentId, 'valid', `consent ${consentId}: valid once its SCA is finalised`, o.headers),
        );
        return consentId;
      }
      ended = sca.scaStatus;
    } catch (e) {
      if (!(e instanceof Blocked)) throw e;
      failure = e;
    }
    // The SCA did not finalise here; a consent the bank holds valid all the same is what the check
    // needs, were it valid only on a later read of its status (a few reads, a poll interval apart).
    for (let read = 0; read < VALID_READS; read++) {
      if (read) await new Promise((done) => setTimeout(done, 750));
      const status = await this.consentStatus(consentId, o.headers).catch(() => undefined);
      if (status === 'valid') return consentId;
      if (status !== 'received' && status !== 'partiallyAuthorised') break;
    }
    if (failure) throw failure;
    return block('authorisations.status.ends', "the SCA of the test's consent", `ended ${ended}, not finalised`);
  }
}

/** How many reads of its status a consent whose SCA did not finalise is given to read valid. */
const VALID_READS = 4;

/** Adds `consents`: a consent client (scope accountinformation, X-BicFi) that deletes what the test created. */
export const test = base.extend<{ consents: ConsentsClient }>({
  consents: boxed(async ({ api }, use) => {
    const client = new ConsentsClient(api.with({ scope: 'accountinformation', bicFi: true }));
    await use(client);
    for (const id of client.created) {
      try {
        await client.delete(id);
      } catch {
        /* cleanup is best effort; the exchange stays in the evidence */
      }
    }
  }),
});
