import { randomUUID } from 'node:crypto';
import { faker } from '@faker-js/faker/locale/en';
import { composeIBAN } from 'ibantools';
import type { PaymentProduct, PaymentService, Profile } from '../config/profile.js';
import type { Target } from '../config/target.js';
import type { ApiClient, HeaderSpec } from '../http/client.js';
import type { ApiResponse } from '../http/response.js';
import { ScaDriver, type AuthoriseOptions, type ScaOutcome } from '../sca/driver.js';
import { test as base } from '../test.js';

export { because, expect, req } from '../test.js';

export const SERVICES: readonly PaymentService[] = ['payments', 'bulk-payments', 'periodic-payments'];
export const PRODUCTS: readonly PaymentProduct[] = [
  'sepa-credit-transfers',
  'domestic',
  'international',
  'international-tp',
  'swedish-giro',
];

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

/** Why the profile does not claim a combination, or undefined when it does. */
export function unclaimed(profile: Profile, c: Combination): string | undefined {
  const services = profile.payments?.services ?? [];
  const products = profile.payments?.products ?? [];
  const missing = [
    !services.includes(c.service) ? `payment service ${c.service}` : '',
    !products.includes(c.product) ? `payment product ${c.product}` : '',
  ].filter(Boolean);
  return missing.length
    ? `not claimed: the profile "${profile.name}" does not claim ${missing.join(' and ')} (payments.services / payments.products)`
    : undefined;
}

/** transactionStatus values of a payment whose authorisation is complete and not rejected (reference-facts, Enumerations). */
export const ACCEPTED = ['ACCP', 'ACTC', 'ACSC', 'ACSP', 'ACWC', 'ACCC', 'ACFC'];

/** The text characters every text field must support (General rules). */
export const CHARACTER_SET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/-?:().,'+";

export const isoDate = (daysFromToday: number) =>
  new Date(Date.now() + daysFromToday * 86_400_000).toISOString().slice(0, 10);

// ---------------------------------------------------------------------------------------------
// Realistic bodies per service × product
// ---------------------------------------------------------------------------------------------

type Json = Record<string, unknown>;

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

/** The creditor side of one payment (single, periodic, or one element of a bulk) for a product. */
export function creditorPart(product: PaymentProduct, profile: Profile): Json {
  const common = {
    endToEndIdentification: `E2E-${reference()}`,
    creditorName: faker.person.fullName().slice(0, 70),
    remittanceInformationUnstructured: `Invoice ${reference()}`,
  };
  switch (product) {
    case 'sepa-credit-transfers':
      return {
        ...common,
        instructedAmount: { currency: 'EUR', amount: amount() },
        creditorAccount: { iban: iban(faker.helpers.arrayElement(['DE', 'FI', 'NL'] as const)), currency: 'EUR' },
        creditorAgent: 'COBADEFFXXX',
        creditorAgentName: 'Commerzbank',
      };
    case 'domestic':
      return {
        ...common,
        instructedAmount: { currency: 'SEK', amount: amount(20000) },
        creditorAccount: swedishAccount(),
      };
    case 'international':
    case 'international-tp':
      return {
        ...common,
        instructedAmount: { currency: faker.helpers.arrayElement(['USD', 'GBP', 'NOK']), amount: amount() },
        creditorAccount: { iban: iban('GB') },
        creditorAgent: 'NWBKGB2LXXX',
        creditorAgentName: 'National Westminster Bank',
        creditorAddress: {
          street: faker.location.street().slice(0, 70),
          buildingNumber: faker.location.buildingNumber(),
          city: faker.location.city(),
          postalCode: faker.location.zipCode(),
          country: 'GB',
        },
      };
    case 'swedish-giro': {
      const giro = {
        giroType: faker.helpers.arrayElement(['BANKGIRO', 'PLUSGIRO']),
        giroNumber: faker.helpers.arrayElement(['5247-7472', '948294-5', '5050-1055']),
      };
      const creditor =
        profile.payments?.giroCreditor === 'creditorAccount'
          ? { creditorAccount: { bban: giro.giroNumber.replace('-', '') } }
          : { creditorGiro: giro };
      return {
        ...common,
        instructedAmount: { currency: 'SEK', amount: amount(20000) },
        ...creditor,
        ocrRef: digits(16),
      };
    }
  }
}

/** The debtor's account for a product: an EUR IBAN for SEPA, a Swedish account otherwise. */
export function debtorAccount(product: PaymentProduct): Json {
  if (product === 'sepa-credit-transfers') return { iban: iban('SE'), currency: 'EUR' };
  if (product === 'domestic') return swedishAccount();
  return { iban: iban('SE'), currency: 'SEK' };
}

/** A valid initiation body of a service × product (single from the specification; bulk, periodic, giro from reference-facts). */
export function paymentBody(c: Combination, profile: Profile): Json {
  const debtor = debtorAccount(c.product);
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

/** A text of exactly `length` letters and digits (for length limits, apart from the character set). */
export function plainText(length: number): string {
  return CHARACTER_SET.slice(0, 62)
    .repeat(Math.ceil(length / 62))
    .slice(0, length);
}

/** How long a payment's status may take to move once its SCA has ended. */
export const settleMs = (scaMs: number) => Math.min(scaMs, 10_000);

/** A text of exactly `length` characters made of the specification's character set. */
export function text(length: number): string {
  return CHARACTER_SET.repeat(Math.ceil(length / CHARACTER_SET.length) + 1).slice(-length);
}

const segments = (path: string) => path.split(/\.|\[(\d+)\]/).filter((s) => s !== undefined && s !== '');

/** The value at a path such as payments[0].creditorName. */
export function getPath(obj: unknown, path: string): unknown {
  return segments(path).reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Json)[k] : undefined), obj);
}

/** A copy of `obj` with the value at `path` set (or removed when `value` is undefined). */
export function withPath(obj: Json, path: string, value: unknown): Json {
  const copy = structuredClone(obj);
  const keys = segments(path);
  let o = copy as Json;
  for (const k of keys.slice(0, -1)) o = o[k] as Json;
  const last = keys[keys.length - 1];
  if (value === undefined) {
    if (Array.isArray(o)) o.splice(Number(last), 1);
    else delete o[last];
  } else o[last] = value;
  return copy;
}

/** Every leaf of `sent` that `read` does not hold unchanged, as "path: sent …, read …". */
export function differences(sent: unknown, read: unknown, path = ''): string[] {
  if (sent && typeof sent === 'object') {
    if (!read || typeof read !== 'object' || Array.isArray(sent) !== Array.isArray(read))
      return [
        `${path || '$'}: sent ${JSON.stringify(sent).slice(0, 120)}, read ${JSON.stringify(read)?.slice(0, 120)}`,
      ];
    const out: string[] = [];
    if (Array.isArray(sent) && Array.isArray(read) && sent.length !== read.length)
      out.push(`${path}: sent ${sent.length} elements, read ${read.length}`);
    for (const [k, v] of Object.entries(sent))
      out.push(...differences(v, (read as Json)[k], Array.isArray(sent) ? `${path}[${k}]` : path ? `${path}.${k}` : k));
    return out;
  }
  return sent === read ? [] : [`${path}: sent ${JSON.stringify(sent)}, read ${JSON.stringify(read)}`];
}

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
  ) {
    this.sca = new ScaDriver(api, this.target.timeouts.scaMs, this.target.profile.payments?.startAuthorisationBody);
  }

  /** The same client in a corporate context (token scope paymentinitiation corporate, PSU-Corporate-ID). */
  corporate(): PaymentsClient {
    return new PaymentsClient(this.api.with({ scope: 'paymentinitiation corporate' }), this.created, 'corporate');
  }

  get target(): Target {
    return this.api.target;
  }
  get profile(): Profile {
    return this.target.profile;
  }

  /** Skips the running test, as not claimed, when the profile does not claim the combination. */
  claim(c: Combination): void {
    const why = unclaimed(this.profile, c);
    base.skip(why !== undefined, why);
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

  /** Headers a product needs beside the common ones (FX-Quote-Id for international-tp). */
  productHeaders(c: Combination): HeaderSpec {
    return c.product === 'international-tp' ? { 'FX-Quote-Id': randomUUID() } : {};
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
    const id = res.status === 201 ? (res.body as { paymentId?: string } | undefined)?.paymentId : undefined;
    if (id) this.created.push(this.basePath(c, id));
    return res;
  }

  /** Initiates and expects 201; returns the paymentId, its base path and the body sent. */
  async initiated(
    c: Combination,
    o: InitiateOptions = {},
  ): Promise<{ paymentId: string; basePath: string; body: Json; res: ApiResponse }> {
    const body = o.body ?? this.body(c);
    const res = await this.initiate(c, { ...o, body });
    if (res.status !== 201) throw new Error(`initiate ${label(c)} payment: expected 201; got ${res.describe()}`);
    const paymentId = res.json<{ paymentId: string }>().paymentId;
    return { paymentId, basePath: this.basePath(c, paymentId), body, res };
  }

  read(basePath: string, headers?: HeaderSpec) {
    return this.api.get(basePath, { headers });
  }
  status(basePath: string, headers?: HeaderSpec) {
    return this.api.get(`${basePath}/status`, { headers });
  }
  cancel(basePath: string, headers?: HeaderSpec) {
    return this.api.delete(basePath, { headers });
  }

  async transactionStatus(basePath: string): Promise<string> {
    return String((await this.status(basePath)).json<{ transactionStatus?: string }>().transactionStatus);
  }

  /** Drives a decoupled SCA on the payment (or its cancellation) to its end. */
  authorise(basePath: string, o: AuthoriseOptions = {}): Promise<ScaOutcome> {
    return this.sca.authorise(basePath, { ...o, headers: { ...this.psuHeaders(), ...o.headers } });
  }

  /** Initiates a payment and drives its SCA to the end. */
  async initiateAuthorised(c: Combination, o: InitiateOptions & { sca?: AuthoriseOptions } = {}) {
    const p = await this.initiated(c, o);
    const sca = await this.authorise(p.basePath, o.sca);
    return { ...p, sca };
  }
}

/** Adds `payments`: a payment client (scope paymentinitiation, X-BicFi) that cancels what the test created. */
export const test = base.extend<{ payments: PaymentsClient }>({
  payments: async ({ api }, use) => {
    const client = new PaymentsClient(api.with({ scope: 'paymentinitiation', bicFi: true }));
    await use(client);
    for (const basePath of client.created) {
      try {
        await client.cancel(basePath);
      } catch {
        /* cleanup is best effort; the exchange stays in the evidence */
      }
    }
  },
});

/** The first combination the profile claims (for checks that need one payment of any kind). */
export function firstClaimed(profile: Profile): Combination | undefined {
  return COMBINATIONS.find((c) => !unclaimed(profile, c));
}
