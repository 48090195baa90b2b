import { faker } from '@faker-js/faker/locale/en';
import { composeIBAN } from 'ibantools';
import { PAYMENT_PRODUCTS as PRODUCTS, PAYMENT_SERVICES as SERVICES } from '../../schemas/payments/products.js';
import type { PaymentProduct, PaymentService, Profile } from '../config/profile.js';
import type { Target } from '../config/target.js';
import { isoDate } from '../dates.js';
import type { ApiClient, HeaderSpec } from '../http/client.js';
import type { ApiResponse } from '../http/response.js';
import type { Json } from '../json.js';
import { prerequisite } from '../http/broken.js';
import { ScaDriver, type AuthoriseOptions, type ScaOutcome } from '../sca/driver.js';
import { boxed, expect, test as base } from '../test.js';
import { paymentReadsToken, psuTokenByRedirect } from '../tokens.js';

export { because, expect, req } from '../test.js';

/** The payment services and products of the specification (one list of each, schemas/payments/products.ts). */
export { PRODUCTS, SERVICES };

/** One payment-service × payment-product of endpoint section D. */
export interface Combination {
  service: PaymentService;
  product: PaymentProduct;
}

/** Every service × product of the specification; tests are made for each and skip those the profile does not claim. */
export const COMBINATIONS: readonly Combination[] = SERVICES.flatMap((service) =>
  PRODUCTS.map((product) => ({ service, product })),
);

export const label = (c: Combination) => `${c.service}/${c.product}`;

/**
 * Why the profile does not claim a combination, or undefined when it does. With the target: an
 * international-tp payment needs an FX quote of the bank (FX_QUOTE_ID), or it is not claimed.
 */
export function unclaimed(profile: Profile, c: Combination, target?: Pick<Target, 'fxQuoteId'>): string | undefined {
  const services = profile.payments?.services ?? [];
  const products = profile.payments?.products ?? [];
  const missing = [
    !services.includes(c.service) ? `payment service ${c.service}` : '',
    !products.includes(c.product) ? `payment product ${c.product}` : '',
  ].filter(Boolean);
  if (missing.length)
    return `not claimed: the profile "${profile.name}" does not claim ${missing.join(' and ')} (payments.services / payments.products)`;
  if (target && c.product === 'international-tp' && !target.fxQuoteId) return NO_FX_QUOTE;
  return undefined;
}

/** Why international-tp is not judged without a quote. */
export const NO_FX_QUOTE =
  'not claimed: an international-tp payment carries FX-Quote-Id, a quote of the bank; set FX_QUOTE_ID in .env to judge international-tp';

/** transactionStatus values of a payment whose authorisation is complete and not rejected (reference-facts, Enumerations). */
export const ACCEPTED = ['ACCP', 'ACTC', 'ACSC', 'ACSP', 'ACWC', 'ACCC', 'ACFC'];

// ---------------------------------------------------------------------------------------------
// Realistic bodies per service × product
// ---------------------------------------------------------------------------------------------

const digits = (n: number) => faker.string.numeric({ length: n, allowLeadingZeros: true });
/** A valid IBAN (mod-97 check digits computed) of a country, from a BBAN of its layout. */
function iban(country: 'SE' | 'DE' | 'FI' | 'NL' | 'FR' | 'GB'): string {
  const bban: Record<typeof country, () => string> = {
    SE: () => `500${digits(17)}`,
    DE: () => `37040044${digits(10)}`,
    FI: () => `123456${digits(8)}`,
    NL: () => `ABNA${digits(10)}`,
    FR: () => `20041010050500013M02606`,
    GB: () => `NWBK${digits(14)}`,
  };
  const out = composeIBAN({ countryCode: country, bban: bban[country]() });
  if (!out) throw new Error(`could not compose a ${country} IBAN`);
  return out;
}
const amount = (max = 2000) => faker.finance.amount({ min: 1, max, dec: 2 });
const swedishAccount = () => ({
  bban: digits(faker.number.int({ min: 7, max: 10 })),
  clearingNumber: faker.helpers.arrayElement(['8327', '5000', '6000', '3300', '9020']),
  currency: 'SEK',
});
const reference = () => faker.string.alphanumeric({ length: 12, casing: 'upper' });

/** The generated debtor's account of a product: an EUR IBAN for SEPA, a Swedish account otherwise. */
function generatedDebtor(product: PaymentProduct): Json {
  if (product === 'sepa-credit-transfers') return { iban: iban('SE'), currency: 'EUR' };
  if (product === 'domestic') return swedishAccount();
  return { iban: iban('SE'), currency: 'SEK' };
}

/** The generated creditor's account of a product (swedish-giro names its creditor by giro number, below). */
function generatedCreditor(product: PaymentProduct): Json | undefined {
  switch (product) {
    case 'sepa-credit-transfers':
      return { iban: iban(faker.helpers.arrayElement(['DE', 'FI', 'NL'] as const)), currency: 'EUR' };
    case 'domestic':
      return swedishAccount();
    case 'international':
    case 'international-tp':
      return { iban: iban('GB') };
    case 'swedish-giro':
      return undefined;
  }
}

/** The generated instructed currency of a product. */
function generatedCurrency(product: PaymentProduct): string {
  if (product === 'sepa-credit-transfers') return 'EUR';
  if (product === 'international' || product === 'international-tp')
    return faker.helpers.arrayElement(['USD', 'GBP', 'NOK']);
  return 'SEK';
}

const GENERATED_AGENT: Partial<Record<PaymentProduct, { bic: string; name: string }>> = {
  'sepa-credit-transfers': { bic: 'COBADEFFXXX', name: 'Commerzbank' },
  international: { bic: 'NWBKGB2LXXX', name: 'National Westminster Bank' },
  'international-tp': { bic: 'NWBKGB2LXXX', name: 'National Westminster Bank' },
};

/** The test data of one product's bodies (productData). */
export interface ProductData {
  debtorAccount: Json;
  /** Undefined for swedish-giro unless the profile gives one (the giro number names the creditor). */
  creditorAccount: Json | undefined;
  /** The creditor's agent (BICFI) and its name, for the products that carry one. */
  creditorAgent: { bic: string; name?: string } | undefined;
  /** instructedAmount.currency. */
  currency: string;
}

/**
 * The one place the test data of a payment body comes from: the profile's payments.accounts of
 * the product where it gives them (fresh copies: callers may edit them), else generated data of
 * the product (a fresh draw for every body). Every payment body the suite sends is made of it.
 */
export function productData(product: PaymentProduct, profile: Profile): ProductData {
  const given = profile.payments?.accounts?.[product];
  const agent = GENERATED_AGENT[product];
  return {
    debtorAccount: given?.debtorAccount ? (structuredClone(given.debtorAccount) as Json) : generatedDebtor(product),
    creditorAccount: given?.creditorAccount
      ? (structuredClone(given.creditorAccount) as Json)
      : generatedCreditor(product),
    // A BICFI of the profile's goes without a name, unless it is the generated agent's own.
    creditorAgent: given?.creditorAgent
      ? { bic: given.creditorAgent, ...(agent?.bic === given.creditorAgent ? { name: agent.name } : {}) }
      : agent,
    currency: given?.currency ?? generatedCurrency(product),
  };
}

/** The creditor side of one payment (single, periodic, or one element of a bulk) for a product. */
export function creditorPart(product: PaymentProduct, profile: Profile): Json {
  const data = productData(product, profile);
  const common = {
    endToEndIdentification: `E2E-${reference()}`,
    creditorName: faker.person.fullName().slice(0, 70),
    remittanceInformationUnstructured: `Invoice ${reference()}`,
  };
  const agent = data.creditorAgent
    ? {
        creditorAgent: data.creditorAgent.bic,
        ...(data.creditorAgent.name ? { creditorAgentName: data.creditorAgent.name } : {}),
      }
    : {};
  switch (product) {
    case 'sepa-credit-transfers':
      return {
        ...common,
        instructedAmount: { currency: data.currency, amount: amount() },
        creditorAccount: data.creditorAccount!,
        ...agent,
      };
    case 'domestic':
      return {
        ...common,
        instructedAmount: { currency: data.currency, amount: amount(20000) },
        creditorAccount: data.creditorAccount!,
        ...agent,
      };
    case 'international':
    case 'international-tp': {
      const account = data.creditorAccount as { iban?: unknown } | undefined;
      const country = typeof account?.iban === 'string' ? account.iban.slice(0, 2) : 'GB';
      return {
        ...common,
        instructedAmount: { currency: data.currency, amount: amount() },
        creditorAccount: data.creditorAccount!,
        ...agent,
        creditorAddress: {
          street: faker.location.street().slice(0, 70),
          buildingNumber: faker.location.buildingNumber(),
          city: faker.location.city(),
          postalCode: faker.location.zipCode(),
          country,
        },
      };
    }
    case 'swedish-giro': {
      const giro = {
        giroType: faker.helpers.arrayElement(['BANKGIRO', 'PLUSGIRO']),
        giroNumber: faker.helpers.arrayElement(['5247-7472', '948294-5', '5050-1055']),
      };
      const creditor =
        profile.payments?.giroCreditor === 'creditorAccount'
          ? { creditorAccount: data.creditorAccount ?? { bban: giro.giroNumber.replace('-', '') } }
          : { creditorGiro: giro };
      return {
        ...common,
        instructedAmount: { currency: data.currency, amount: amount(20000) },
        ...creditor,
        ocrRef: digits(16),
      };
    }
  }
}

/** The debtor's account of a product's body: the profile's (payments.accounts) or a generated one. */
export function debtorAccount(product: PaymentProduct, profile: Profile): Json {
  return productData(product, profile).debtorAccount;
}

/** A valid initiation body of a service × product (single from the specification; bulk, periodic, giro from reference-facts). */
export function paymentBody(c: Combination, profile: Profile): Json {
  const debtor = debtorAccount(c.product, profile);
  if (c.service === 'bulk-payments') {
    return {
      debtorAccount: debtor,
      batchBookingPreferred: true,
      requestedExecutionDate: isoDate(3),
      payments: [creditorPart(c.product, profile), creditorPart(c.product, profile)],
    };
  }
  const single = {
    ...creditorPart(c.product, profile),
    debtorAccount: debtor,
    debtorAccountMessage: `Payment ${reference()}`,
  };
  if (c.service === 'periodic-payments') {
    const start = isoDate(7);
    return {
      ...single,
      startDate: start,
      endDate: isoDate(372),
      frequency: 'Monthly',
      executionRule: 'following',
      dayOfExecution: String(Number(start.slice(8, 10))),
    };
  }
  return { ...single, requestedExecutionDate: isoDate(3) };
}

/** Where the creditor fields sit: top level, or in the first element of a bulk. */
export const creditorPrefix = (c: Combination) => (c.service === 'bulk-payments' ? 'payments[0].' : '');

/** The limited text fields of a combination with their limits (Limits); debtorAccountMessage is not part of a bulk. */
export function limitedFields(c: Combination): { path: string; field: string; max: number; requirement: string }[] {
  const p = creditorPrefix(c);
  const fields = [
    {
      path: `${p}endToEndIdentification`,
      field: 'endToEndIdentification',
      max: 35,
      requirement: 'payments.limits.end-to-end-identification',
    },
    { path: `${p}creditorName`, field: 'creditorName', max: 70, requirement: 'payments.limits.creditor-name' },
    {
      path: `${p}creditorAgentName`,
      field: 'creditorAgentName',
      max: 70,
      requirement: 'payments.limits.creditor-agent-name',
    },
    {
      path: `${p}remittanceInformationUnstructured`,
      field: 'remittanceInformationUnstructured',
      max: 140,
      requirement: 'payments.limits.remittance-information',
    },
  ];
  if (c.service !== 'bulk-payments')
    fields.push({
      path: 'debtorAccountMessage',
      field: 'debtorAccountMessage',
      max: 140,
      requirement: 'payments.limits.debtor-account-message',
    });
  return fields;
}

/** The required fields of a combination (Resources > Payment; reference-facts for bulk, periodic and giro). */
export function requiredFields(c: Combination, profile: Profile): string[] {
  const creditor =
    c.product === 'swedish-giro' && profile.payments?.giroCreditor !== 'creditorAccount'
      ? 'creditorGiro'
      : 'creditorAccount';
  const tx = ['instructedAmount', creditor, 'creditorName'];
  if (c.service === 'bulk-payments') return ['debtorAccount', 'payments', ...tx.map((f) => `payments[0].${f}`)];
  return ['debtorAccount', ...tx, ...(c.service === 'periodic-payments' ? ['startDate', 'frequency'] : [])];
}

/** How long a payment's status may take to move once its SCA has ended. */
export const settleMs = (scaMs: number) => Math.min(scaMs, 10_000);

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
    return this.profile.payments?.cancellationAuthorisation?.includes(c.product) ?? false;
  }

  path(c: Combination): string {
    return `${this.profile.paths.payments ?? 'psd2/paymentinitiation/v1'}/${c.service}/${c.product}`;
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
    const otherPsu = Object.keys(o.headers ?? {}).some((h) => h.toLowerCase() === 'psu-id');
    if (
      this.psuTokenReads &&
      this.context === this.profile.psuContext &&
      (o.sub ?? 'authorisations') === 'authorisations' &&
      !otherPsu &&
      !o.method &&
      !o.offered
    )
      return this.authoriseByRedirect(basePath, o);
    return this.sca.authorise(basePath, {
      ...o,
      headers: { ...this.psuHeaders(), ...o.headers },
      roots: { create: 'payments.authorisations.create', ...o.roots },
    });
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
    const sca = await this.authorise(p.basePath, o.sca);
    return { ...p, sca };
  }
}

export interface PaymentsFixtures {
  payments: PaymentsClient;
  /**
   * The service × product of a test declared by `forEachCombination` (set there with `test.use`).
   * Only those tests ask for it; elsewhere it is undefined, its default.
   */
  combination: Combination;
  /** Skips a test of a combination the profile does not claim, as not claimed, before it starts. */
  _combinationClaimed: void;
}

/**
 * Adds `payments`: a payment client (scope paymentinitiation, X-BicFi) that cancels what the test
 * created, and `combination`: the service × product of the tests `forEachCombination` declares.
 */
export const test = base.extend<PaymentsFixtures>({
  combination: [undefined as unknown as Combination, { option: true, box: 'self' }],
  _combinationClaimed: [
    async ({ combination, target }, use, testInfo) => {
      const why = combination === undefined ? undefined : unclaimed(target.profile, combination, target);
      testInfo.skip(why !== undefined, why);
      await use();
    },
    { auto: true, box: 'self' },
  ],
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
        test.use({ combination: c });
        body(c);
      },
    );
  }
}

/** The first combination the profile claims (for checks that need one payment of any kind). */
export function firstClaimed(profile: Profile): Combination | undefined {
  return COMBINATIONS.find((c) => !unclaimed(profile, c));
}

/**
 * The first combination the profile claims whose cancellation it says needs an authorisation
 * (payments.cancellationAuthorisation), for checks of the cancellation-authorisations.
 */
export function firstCancellationAuthorised(profile: Profile): Combination | undefined {
  const products = profile.payments?.cancellationAuthorisation ?? [];
  return COMBINATIONS.find((c) => !unclaimed(profile, c) && products.includes(c.product));
}
