import { requireSuccess } from '../http/broken.js';
import type { ApiClient, HeaderSpec } from '../http/client.js';
import type { ApiResponse } from '../http/response.js';
import { ScaDriver, type AuthoriseOptions, type ScaOutcome } from '../sca/driver.js';
import { firstClaimed, PaymentsClient, test as paymentsTest, type Combination } from './payments.js';
import { boxed } from '../test.js';

export { ACCEPTED, AUTHORISED_SCA, because, expect, req, settleMs } from './payments.js';

/** Signing baskets (endpoint section E) over the payments client of the same test. */
export class BasketsClient {
  /** Baskets this test created: deleted when it ends, where the API still allows it. */
  readonly sca: ScaDriver;

  constructor(
    readonly api: ApiClient,
    readonly payments: PaymentsClient,
    readonly created: string[] = [],
  ) {
    // A basket's start authorisation has no body (section E): payments.startAuthorisationBody is the payment's.
    this.sca = new ScaDriver(api, api.target.timeouts.scaMs);
  }

  get path(): string {
    return this.api.target.profile.paths.signingBaskets;
  }
  basePath(basketId: string): string {
    return `${this.path}/${basketId}`;
  }

  /** The combination basket tests fill their baskets with: the first the profile claims. */
  combination(): Combination | undefined {
    return firstClaimed(this.api.target);
  }

  /** Initiates `count` payments (not authorised) to put in a basket; returns their ids and base paths. */
  async paymentsToSign(count = 2): Promise<{ paymentId: string; basePath: string }[]> {
    const c = this.combination();
    if (!c) throw new Error('the profile claims no payment service and product to fill a basket with');
    const out = [];
    for (let i = 0; i < count; i++) out.push(await this.payments.initiated(c));
    return out;
  }

  async create(paymentIds: unknown, headers?: HeaderSpec): Promise<ApiResponse> {
    const res = await this.api.post(this.path, {
      json: { paymentIds },
      headers: { ...this.payments.psuHeaders(), ...headers },
    });
    const id =
      res.status >= 200 && res.status < 300 ? (res.body as { basketId?: string } | undefined)?.basketId : undefined;
    if (id) this.created.push(id);
    return res;
  }

  /** Creates a basket of new payments and expects a success (any 2xx: signing-baskets.create.response-code judges 201). */
  async createdBasket(count = 2) {
    const items = await this.paymentsToSign(count);
    const res = await this.create(items.map((p) => p.paymentId));
    requireSuccess(res, 'signing-baskets.create.response', 'create signing basket');
    const basketId = res.json<{ basketId: string }>().basketId;
    return { basketId, basePath: this.basePath(basketId), payments: items, res };
  }

  read(basketId: string) {
    return this.api.get(this.basePath(basketId));
  }
  status(basketId: string) {
    return this.api.get(`${this.basePath(basketId)}/status`);
  }
  delete(basketId: string) {
    return this.api.delete(this.basePath(basketId));
  }

  /**
   * The same client in a corporate context (token scope paymentinitiation corporate, PSU-Corporate-ID):
   * its payments and baskets are deleted with this client's.
   */
  corporate(): BasketsClient {
    return new BasketsClient(
      this.api.with({ scope: 'paymentinitiation corporate' }),
      this.payments.corporate(),
      this.created,
    );
  }

  /**
   * POST <basket>/authorisations with no body (section E: "no body; authorisation start response"),
   * with the PSU's headers; `o.headers` adds to them (e.g. TPP-Redirect-Preferred).
   */
  startAuthorisation(basketId: string, headers?: HeaderSpec): Promise<ApiResponse> {
    return this.sca.create(this.basePath(basketId), 'authorisations', { ...this.payments.psuHeaders(), ...headers });
  }

  /** Drives a decoupled SCA on the basket to its end. */
  authorise(basketId: string, o: AuthoriseOptions = {}): Promise<ScaOutcome> {
    return this.sca.authorise(this.basePath(basketId), {
      ...o,
      headers: { ...this.payments.psuHeaders(), ...o.headers },
    });
  }
}

/** Why a check that fills a basket is skipped when the profile claims no payment service and product. */
export const noBasketPayment = (profileName: string) =>
  `not claimed: the profile "${profileName}" claims no payment service and product to fill a basket with`;

export interface BasketsFixtures {
  baskets: BasketsClient;
  /**
   * The payment kind the test's baskets are filled with (`baskets.combination()`). A test (or a
   * `beforeEach`) that asks for it is skipped before its body, as not claimed, when there is none.
   */
  basketPayment: Combination;
}

/**
 * Adds `baskets` (and `payments`): a basket client that deletes the baskets the test created, and
 * `basketPayment`, the precondition of a check that fills a basket.
 */
export const test = paymentsTest.extend<BasketsFixtures>({
  basketPayment: boxed(async ({ baskets, target }, use, testInfo) => {
    const c = baskets.combination();
    testInfo.skip(!c, noBasketPayment(target.profileName));
    await use(c!);
  }),
  baskets: boxed(async ({ api, payments }, use) => {
    const client = new BasketsClient(api.with({ scope: 'paymentinitiation', bicFi: true }), payments);
    await use(client);
    for (const id of client.created) {
      try {
        await client.delete(id);
      } catch {
        /* best effort: an authorised basket can no longer be deleted */
      }
    }
  }),
});
