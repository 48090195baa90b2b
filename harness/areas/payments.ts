import type { Profile } from '../config/profile.js';
import type { Target } from '../config/target.js';
import type { ApiClient, HeaderSpec } from '../http/client.js';
import type { ApiResponse } from '../http/response.js';
import type { Json } from '../values/json.js';
import { Blocked, prerequisite } from '../http/broken.js';
import { ScaDriver, type AuthoriseOptions, type ScaOutcome } from '../sca/driver.js';
import { boxed, expect, test as base } from '../test.js';
import { paymentBody } from './payment-bodies.js';
import { ACCEPTED, COMBINATIONS, label, unclaimed, type Claimant, type Combination } from './payment-combinations.js';
import { paymentReadsToken, psuTokenByRedirect } from '../auth/tokens.js';

export { because, expect, req } from '../test.js';

export * from './payment-combinations.js';
export * from './payment-bodies.js';

/**
 * How long a payment's status may take to move once its SCA has ended: the profile's SCA timeout
 * (the tables say what a status becomes, not within what time).
 */
export const settleMs = (scaMs: number) => scaMs;

// ---------------------------------------------------------------------------------------------
// Client
// ---------------------------------------------------------------------------------------------

export interface InitiateOptions {
  body?: Json;
  headers?: HeaderSpec;
  /** Token scope for the call, e.g. "paymentinitiation corporate". */
  scope?: string;
}

/** Payment initiation (endpoint section D) with the PSU headers of the profile's context. */
export class PaymentsClient {
  readonly sca: ScaDriver;

  /** `created`: payments this test created (their base paths), cancelled when it ends where the API allows. */
  constructor(
    readonly api: ApiClient,
    readonly created: string[] = [],
    readonly context: 'private' | 'corporate' = api.target.profile.psuContext,
    /** The PSU's token of each payment (by base path) authorised in the redirect flow under tokens.paymentReads psu. */
    readonly psuTokens = new Map<string, string>(),
  ) {
    this.sca = new ScaDriver(api, this.target.timeouts.scaMs, this.target.profile.payments?.startAuthorisationBody);
  }

  /** The same client in a corporate context (token scope paymentinitiation corporate, PSU-Corporate-ID). */
  corporate(): PaymentsClient {
    return new PaymentsClient(
      this.api.with({ scope: 'paymentinitiation corporate' }),
      this.created,
      'corporate',
      this.psuTokens,
    );
  }

  get target(): Target {
    return this.api.target;
  }
  get profile(): Profile {
    return this.target.profile;
  }

  /** The profile says a cancellation of this product needs an authorisation. */
  needsCancellationAuthorisation(c: Combination): boolean {
    return this.profile.payments.cancellationAuthorisation.includes(c.product);
  }

  path(c: Combination): string {
    return `${this.profile.paths.payments}/${c.service}/${c.product}`;
  }
  basePath(c: Combination, paymentId: string): string {
    return `${this.path(c)}/${paymentId}`;
  }

  body(c: Combination): Json {
    return paymentBody(c, this.profile);
  }

  /** PSU headers for a PSU-present call in the profile's context. */
  psuHeaders(context = this.context): HeaderSpec {
    const t = this.target;
    return {
      ...(t.psuId ? { 'PSU-ID': t.psuId } : {}),
      ...(context === 'corporate' && t.psuCorporateId ? { 'PSU-Corporate-ID': t.psuCorporateId } : {}),
      'PSU-IP-Address': t.psuIpAddress,
    };
  }

  /** Headers a product needs beside the common ones (FX-Quote-Id for international-tp: the quote of FX_QUOTE_ID). */
  productHeaders(c: Combination): HeaderSpec {
    return c.product === 'international-tp' && this.target.fxQuoteId ? { 'FX-Quote-Id': this.target.fxQuoteId } : {};
  }

  async initiate(c: Combination, o: InitiateOptions = {}): Promise<ApiResponse> {
    const res = await this.api.post(this.path(c), {
      json: o.body ?? this.body(c),
      headers: {
        ...this.psuHeaders(o.scope?.includes('corporate') ? 'corporate' : this.context),
        ...this.productHeaders(c),
        ...o.headers,
      },
      scope: o.scope,
    });
    const id =
      res.status >= 200 && res.status < 300 ? (res.body as { paymentId?: string } | undefined)?.paymentId : undefined;
    if (id) this.created.push(this.basePath(c, id));
    return res;
  }

  /** Initiates (a step others build on: any 2xx with a paymentId); returns the paymentId, its base path and the body sent. */
  async initiated(
    c: Combination,
    o: InitiateOptions = {},
  ): Promise<{ paymentId: string; basePath: string; body: Json; res: ApiResponse }> {
    const body = o.body ?? this.body(c);
    const res = await this.initiate(c, { ...o, body });
    // A step other checks build on: its exact answer is judged by payments.initiate.response itself.
    const paymentId = await prerequisite('payments.initiate.response', `initiate a ${label(c)} payment`, async () => {
      expect(res).toSucceed();
      const id = res.json<{ paymentId?: string }>().paymentId;
      expect(id, `initiate ${label(c)} payment: a paymentId; got ${res.describe()}`).toBeTruthy();
      return id!;
    });
    return { paymentId, basePath: this.basePath(c, paymentId), body, res };
  }

  /** The profile claims that a payment's reads after its SCA need the PSU's token of the payment (tokens.paymentReads psu). */
  get psuTokenReads(): boolean {
    return paymentReadsToken(this.target) === 'psu';
  }

  /**
   * The options of a read, status or cancel: with the PSU's token of the payment when the suite
   * holds one (tokens.paymentReads psu, a payment it authorised in the redirect flow) and the
   * caller sends no Authorization of its own; else with the application token.
   */
  private readOptions(basePath: string, headers?: HeaderSpec): { headers?: HeaderSpec; noAuth?: boolean } {
    const token = this.psuTokens.get(basePath);
    const own = Object.keys(headers ?? {}).some((h) => h.toLowerCase() === 'authorization');
    if (!token || own) return { headers };
    return { noAuth: true, headers: { Authorization: `Bearer ${token}`, ...headers } };
  }

  read(basePath: string, headers?: HeaderSpec) {
    return this.api.get(basePath, this.readOptions(basePath, headers));
  }
  status(basePath: string, headers?: HeaderSpec) {
    return this.api.get(`${basePath}/status`, this.readOptions(basePath, headers));
  }
  cancel(basePath: string, headers?: HeaderSpec) {
    return this.api.delete(basePath, this.readOptions(basePath, headers));
  }

  async transactionStatus(basePath: string): Promise<string> {
    return String((await this.status(basePath)).json<{ transactionStatus?: string }>().transactionStatus);
  }

  /**
   * Drives a decoupled SCA on the payment (or its cancellation) to its end. Under tokens.paymentReads
   * psu, the payment authorisation of the reference PSU in the profile's context (no other PSU-ID,
   * no method or offered methods asked for) goes through the redirect flow instead: the code is
   * exchanged for the PSU's token, which the payment's later reads send.
   */
  async authorise(basePath: string, o: AuthoriseOptions = {}): Promise<ScaOutcome> {
    const plain = plainAuthorisation(o);
    try {
      if (this.psuTokenReads && this.context === this.profile.psuContext && plain)
        return await this.authoriseByRedirect(basePath, o);
      return await this.sca.authorise(basePath, {
        ...o,
        headers: { ...this.psuHeaders(), ...o.headers },
        roots: { create: 'payments.authorisations.create', ...o.roots },
      });
    } catch (e) {
      // A flow that could not be driven on a payment that reads authorised all the same (it needed
      // no SCA): an authorised payment, which is what the check needs.
      const exempted = plain && e instanceof Blocked ? await this.exempted(basePath) : undefined;
      if (!exempted) throw e;
      return exempted;
    }
  }

  /**
   * A payment that needs no SCA at all (exempted): its status read gives an accepted
   * transactionStatus (ACCP, ACSC, ACCC...). Such a payment is an
   * authorised payment: every check that needs one is judged on it; only the checks about the SCA
   * steps themselves (which ask for a method, another PSU or a cancellation's) need a flow.
   * Its outcome: scaStatus exempted, no authorisation. Undefined when the payment reads otherwise.
   */
  async exempted(basePath: string, initiated?: ApiResponse): Promise<ScaOutcome | undefined> {
    const at = Date.now();
    const told = (res: ApiResponse | undefined) =>
      (res?.body as { transactionStatus?: unknown } | undefined)?.transactionStatus;
    const accepted = (status: unknown) => typeof status === 'string' && ACCEPTED.includes(status);
    // Its status read says so, whatever the initiation answer said (an answer may say ACCP of a payment still RCVD).
    const read = await this.status(basePath).catch(() => undefined);
    if (!read || read.status < 200 || read.status >= 300 || !accepted(told(read))) return undefined;
    return {
      authorisationId: '',
      href: '',
      scaStatus: 'exempted',
      startedAt: at,
      endedAt: at,
      polls: [],
      created: initiated ?? read,
      started: read,
    };
  }

  /** The redirect flow of `authorise` under tokens.paymentReads psu: the SCA ends with the code exchange. */
  private async authoriseByRedirect(basePath: string, o: AuthoriseOptions): Promise<ScaOutcome> {
    const startedAt = Date.now();
    const paymentId = basePath.split('/').pop()!;
    const { token, authorisationId, exchanged } = await psuTokenByRedirect(this.sca, this.api, {
      resourceBasePath: basePath,
      resource: 'Payment',
      resourceId: paymentId,
      scope: `paymentinitiation ${this.context}`,
      headers: { ...this.psuHeaders(), ...o.headers },
      createRoot: o.roots?.create ?? 'payments.authorisations.create',
    });
    this.psuTokens.set(basePath, token);
    const href = `${basePath}/authorisations/${authorisationId}`;
    const status = await this.sca.status(href, this.psuHeaders());
    const scaStatus = String(status.json<{ scaStatus?: unknown }>().scaStatus);
    return {
      authorisationId,
      href,
      scaStatus,
      startedAt,
      endedAt: Date.now(),
      polls: [],
      created: exchanged,
      started: status,
    };
  }

  /** Initiates a payment and drives its SCA to the end. */
  async initiateAuthorised(c: Combination, o: InitiateOptions & { sca?: AuthoriseOptions } = {}) {
    const p = await this.initiated(c, o);
    // A payment whose initiation answer reads accepted needed no SCA: no authorisation is created on it.
    const told = (p.res.body as { transactionStatus?: unknown } | undefined)?.transactionStatus;
    const atOnce =
      plainAuthorisation(o.sca ?? {}) && typeof told === 'string' && ACCEPTED.includes(told)
        ? await this.exempted(p.basePath, p.res)
        : undefined;
    const sca = atOnce ?? (await this.authorise(p.basePath, o.sca));
    return { ...p, sca };
  }
}

/**
 * The SCA ends of a payment authorised: its SCA finalised, or none needed (exempted: the payment
 * read accepted at once).
 */
export const AUTHORISED_SCA = /^(finalised|exempted)$/;

/**
 * An authorisation of the payment itself by the reference PSU, with no method or offered methods
 * asked for: what a check needs that wants the payment authorised, not the SCA steps themselves.
 */
const plainAuthorisation = (o: AuthoriseOptions) =>
  (o.sub ?? 'authorisations') === 'authorisations' &&
  !Object.keys(o.headers ?? {}).some((h) => h.toLowerCase() === 'psu-id') &&
  !o.method &&
  !o.offered;

export interface PaymentsFixtures {
  payments: PaymentsClient;
  /**
   * The service × product of a test declared by `forEachCombination` (set there with `test.use`).
   * Only those tests ask for it; elsewhere it is undefined, its default.
   */
  combination: Combination;
  /** Skips a test of a combination the profile does not claim, as not claimed, before it starts. */
  _combinationClaimed: void;
  /**
   * The payment kind of a check whose cancellation needs an authorisation: in a test of
   * `forEachCombination`, its `combination` when the profile lists its product in
   * payments.cancellationAuthorisation; elsewhere the first claimed one it says so of
   * (`firstCancellationAuthorised`). Otherwise the test is skipped before its body, as not claimed.
   */
  authorisedCancellation: Combination;
}

/**
 * Adds `payments`: a payment client (scope paymentinitiation, X-BicFi) that cancels what the test
 * created, and `combination`: the service × product of the tests `forEachCombination` declares.
 */
export const test = base.extend<PaymentsFixtures>({
  combination: [undefined as unknown as Combination, { option: true, box: 'self' }],
  _combinationClaimed: [
    async ({ combination, target }, use, testInfo) => {
      const why = combination === undefined ? undefined : unclaimed(target, combination);
      testInfo.skip(why !== undefined, why);
      await use();
    },
    { auto: true, box: 'self' },
  ],
  authorisedCancellation: boxed(async ({ combination, payments }, use, testInfo) => {
    const c =
      combination === undefined
        ? firstCancellationAuthorised(payments.target)
        : payments.needsCancellationAuthorisation(combination)
          ? combination
          : undefined;
    testInfo.skip(!c, noAuthorisedCancellation(combination));
    await use(c!);
  }),
  payments: boxed(async ({ api }, use) => {
    const client = new PaymentsClient(api.with({ scope: 'paymentinitiation', bicFi: true }));
    await use(client);
    for (const basePath of client.created) {
      try {
        await client.cancel(basePath);
      } catch {
        /* cleanup is best effort; the exchange stays in the evidence */
      }
    }
  }),
});

/**
 * Declares the tests of `body` once per service × product of the specification: each in a
 * describe titled with the combination's label, annotated with its `service` and `product`, with
 * the `combination` fixture set to it. A combination the profile does not claim is skipped as not
 * claimed before any test body runs. `body` gets the combination for what is decided when the
 * tests are declared (titles, which tests a combination has); test bodies read the `combination`
 * fixture.
 */
export function forEachCombination(body: (c: Combination) => void): void {
  for (const c of COMBINATIONS) {
    test.describe(
      label(c),
      {
        annotation: [
          { type: 'service', description: c.service },
          { type: 'product', description: c.product },
        ],
      },
      () => {
        // `box: 'self'` again: a `use` of a value keeps the option but not its box, and the
        // fixture's teardown would be a step (a captured stack and two messages to the runner)
        // in every test of every combination.
        test.use({ combination: [c, { scope: 'test', box: 'self' }] });
        body(c);
      },
    );
  }
}

/**
 * The first combination the profile claims whose cancellation it says needs an authorisation
 * (feature payments.cancellation-authorisation, the product in payments.cancellationAuthorisation),
 * for checks of the cancellation-authorisations.
 */
export function firstCancellationAuthorised(target: Claimant): Combination | undefined {
  const { profile } = target;
  if (!profile.features.includes('payments.cancellation-authorisation')) return undefined;
  const products = profile.payments.cancellationAuthorisation;
  return COMBINATIONS.find((c) => !unclaimed(target, c) && products.includes(c.product));
}

/** Why a check of a cancellation authorisation is skipped: `c`'s is not one, or (no `c`) the profile claims none. */
export const noAuthorisedCancellation = (c?: Combination) =>
  c
    ? `not claimed: the profile does not list ${c.product} in payments.cancellationAuthorisation`
    : 'not claimed: the profile claims no cancellation authorisation (feature payments.cancellation-authorisation with a claimed product in payments.cancellationAuthorisation)';
