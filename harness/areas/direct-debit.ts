import { faker } from '@faker-js/faker/locale/en';
import { composeIBAN } from 'ibantools';
import { createRequire } from 'node:module';
import type { SchemaType } from '../../schemas/index.js';
import { validatePain008 } from '../../spec/iso20022/pain008.js';
import { directDebitPaymentRequestSchema } from '../../schemas/direct-debit/payment-request.js';
import { isoDate } from '../values/dates.js';
import type { ApiClient, HeaderSpec } from '../http/client.js';
import type { ApiResponse } from '../http/response.js';
import { block, prerequisite } from '../http/broken.js';
import { boxed, expect } from '../test.js';
import { ConsentsClient, consentRequest, test as consentsTest } from './consents.js';

export { because, expect, req } from '../test.js';
export { consentRequest } from './consents.js';

/** A postal address as an object (schemas/direct-debit/address also allows one string). */
export type DirectDebitAddress = Exclude<SchemaType<'direct-debit/address'>, string>;

/** The body of create SEPA direct debit payment (specification: SEPA direct debit payment). */
export type DirectDebitBody = SchemaType<'direct-debit/payment-request'>;

/**
 * The fields get payment repeats that direct-debit.get.fields judges: the required ones and the
 * remittance lines (the addresses and agents have their own read-back requirements).
 */
export const GET_FIELDS: readonly string[] = [
  ...directDebitPaymentRequestSchema.required,
  'remittanceInformationUnstructuredArray',
];

/** Dutch banks: IBAN bank code and BIC (the debtor's bank must be in the Netherlands). */
export const DUTCH_BANKS = [
  { code: 'ABNA', bic: 'ABNANL2A', name: 'ABN AMRO Bank N.V.' },
  { code: 'RABO', bic: 'RABONL2U', name: 'Rabobank' },
  { code: 'INGB', bic: 'INGBNL2A', name: 'ING Bank N.V.' },
  { code: 'SNSB', bic: 'SNSBNL2A', name: 'de Volksbank N.V.' },
  { code: 'TRIO', bic: 'TRIONL2U', name: 'Triodos Bank N.V.' },
  { code: 'KNAB', bic: 'KNABNL2H', name: 'Knab' },
];

/** A Dutch IBAN with valid check digits at one of DUTCH_BANKS. */
export function dutchIban(bank = faker.helpers.arrayElement(DUTCH_BANKS)): string {
  return composeIBAN({ countryCode: 'NL', bban: `${bank.code}${faker.string.numeric(10)}` })!;
}

/** A valid German IBAN (a SEPA account outside the Netherlands). */
export function germanIban(): string {
  return composeIBAN({ countryCode: 'DE', bban: faker.string.numeric(18) })!;
}

/** An IBAN with its check digits broken (same form, fails ISO 13616 mod 97). */
export function withWrongCheckDigits(iban: string): string {
  const check = Number(iban.slice(2, 4));
  return `${iban.slice(0, 2)}${String(check === 97 ? 2 : check + 1).padStart(2, '0')}${iban.slice(4)}`;
}

const mod97 = (digits: string) => [...digits].reduce((r, d) => (r * 10 + Number(d)) % 97, 0);
const numeric = (s: string) => [...s].map((c) => (/[A-Z]/.test(c) ? String(c.charCodeAt(0) - 55) : c)).join('');

/**
 * A SEPA creditor identifier: country, ISO 7064 mod 97-10 check digits over the national id +
 * country + "00" (the business code takes no part), business code, national id.
 */
export function sepaCreditorId(
  country = 'NL',
  businessCode = 'ZZZ',
  nationalId = `${faker.string.numeric(8)}0000`,
): string {
  const check = String(98 - mod97(numeric(`${nationalId}${country}00`))).padStart(2, '0');
  return `${country}${check}${businessCode}${nationalId}`;
}

export interface Creditor {
  name: string;
  iban: string;
  bic: string;
  creditorId: string;
}

/** A realistic Dutch creditor (a company collecting under its SEPA creditor identifier). */
export function dutchCreditor(): Creditor {
  const bank = faker.helpers.arrayElement(DUTCH_BANKS);
  return {
    name: `${faker.company.name()} B.V.`.slice(0, 70),
    iban: dutchIban(bank),
    bic: bank.bic,
    creditorId: sepaCreditorId(),
  };
}

/** A valid collection: EUR, CORE, a Dutch debtor, a mandate signed in the past, execution in 5 days. */
export function directDebitBody(creditor: Creditor, overrides: Partial<DirectDebitBody> = {}): DirectDebitBody {
  const debtorBank = faker.helpers.arrayElement(DUTCH_BANKS);
  const bankOf = DUTCH_BANKS.find((b) => b.bic === creditor.bic);
  return {
    instructedAmount: { currency: 'EUR', amount: faker.finance.amount({ min: 1, max: 500, dec: 2 }) },
    creditorAccount: { iban: creditor.iban, currency: 'EUR' },
    creditorName: creditor.name,
    creditorId: creditor.creditorId,
    creditorAddress: {
      street: 'Herengracht',
      buildingNumber: String(faker.number.int({ min: 1, max: 600 })),
      city: 'Amsterdam',
      postalCode: '1015 BZ',
      country: 'NL',
    },
    creditorAgent: creditor.bic,
    ...(bankOf ? { creditorAgentName: bankOf.name } : {}),
    debtorAccount: { iban: dutchIban(debtorBank), currency: 'EUR' },
    debtorName: faker.person.fullName().slice(0, 70),
    debtorAgent: debtorBank.bic,
    debtorAgentName: debtorBank.name,
    debtorAddress: {
      street: 'Oudegracht',
      buildingNumber: String(faker.number.int({ min: 1, max: 300 })),
      city: 'Utrecht',
      postalCode: '3511 AB',
      country: 'NL',
    },
    localInstrumentCode: 'CORE',
    sequenceType: 'RCUR',
    mandateRelatedInformation: {
      mandateId: `MNDT-${faker.string.alphanumeric({ length: 12, casing: 'upper' })}`,
      dateOfSignature: isoDate(-faker.number.int({ min: 30, max: 700 })),
    },
    requestedExecutionDate: isoDate(5),
    remittanceInformationUnstructuredArray: [`Invoice ${faker.string.numeric(8)}`],
    ...overrides,
  };
}

/** A tppMessage of a confirm answer. */
export type TppMessage = SchemaType<'direct-debit/confirm-response'>['tppMessages'][number];

export interface CallOptions {
  headers?: HeaderSpec;
  /** Token scope for this call (default: paymentinitiation corporate). */
  scope?: string;
}

/**
 * SEPA direct debit (endpoint section H) with a `paymentinitiation corporate` token and the
 * section's headers (PSU-ID, PSU-Corporate-ID, PSU-IP-Address, PSU-User-Agent); direct debit
 * consents through the consent service in the corporate context.
 */
export class DirectDebitClient {
  readonly creditor: Creditor;

  constructor(
    readonly api: ApiClient,
    readonly consents: ConsentsClient,
  ) {
    this.creditor = api.target.profile.directDebit?.creditor ?? dutchCreditor();
  }

  get createPath(): string {
    return this.api.target.profile.paths.directDebitCreate;
  }
  get paymentsPath(): string {
    return this.api.target.profile.paths.directDebitPayments;
  }

  /** The headers of section H. */
  psuHeaders(): HeaderSpec {
    const t = this.api.target;
    return {
      ...(t.psuId ? { 'PSU-ID': t.psuId } : {}),
      ...(t.psuCorporateId ? { 'PSU-Corporate-ID': t.psuCorporateId } : {}),
      'PSU-IP-Address': t.psuIpAddress,
      'PSU-User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) obg-conformance',
    };
  }

  body(overrides: Partial<DirectDebitBody> = {}): DirectDebitBody {
    return directDebitBody(this.creditor, overrides);
  }

  create(body: unknown, o: CallOptions = {}): Promise<ApiResponse> {
    return this.api.post(this.createPath, {
      json: body,
      headers: { ...this.psuHeaders(), ...o.headers },
      scope: o.scope,
    });
  }

  /** PUT confirm (or the confirmPayment href); consentId null leaves Consent-ID out. */
  confirm(
    paymentIds: unknown,
    consentId: string | null,
    o: CallOptions & { href?: string } = {},
  ): Promise<ApiResponse> {
    return this.api.put(o.href ?? `${this.paymentsPath}/confirm`, {
      json: { paymentIds },
      headers: { ...this.psuHeaders(), ...(consentId !== null ? { 'Consent-ID': consentId } : {}), ...o.headers },
      scope: o.scope,
    });
  }

  /** GET a payment by id, or by its self href. */
  get(paymentIdOrHref: string, o: CallOptions = {}): Promise<ApiResponse> {
    const path = paymentIdOrHref.includes('/')
      ? paymentIdOrHref
      : `${this.paymentsPath}/${encodeURIComponent(paymentIdOrHref)}`;
    return this.api.get(path, { headers: { ...this.psuHeaders(), ...o.headers }, scope: o.scope });
  }

  /** Creates a valid collection; fails the test (with the answer) unless it is accepted. */
  async createPayment(
    overrides: Partial<DirectDebitBody> = {},
  ): Promise<{ paymentId: string; body: DirectDebitBody; res: ApiResponse }> {
    const body = this.body(overrides);
    const res = await this.create(body);
    // A step other checks build on (any 2xx with a paymentId): its exact answer is judged by direct-debit.create.response.
    const paymentId = await prerequisite('direct-debit.create.response', 'create a direct debit', async () => {
      expect(res).toSucceed();
      const id = res.json<{ paymentId?: string }>().paymentId;
      expect(id, `create direct debit: a paymentId; got ${res.describe()}`).toBeTruthy();
      return id!;
    });
    return { paymentId, body, res };
  }

  /**
   * Creates a valid collection and reads it back (get payment, a 2xx expected); returns what was sent
   * and the read body.
   */
  async createAndRead(
    overrides: Partial<DirectDebitBody> = {},
  ): Promise<{ paymentId: string; body: DirectDebitBody; read: Record<string, unknown> }> {
    const { paymentId, body } = await this.createPayment(overrides);
    const res = await this.get(paymentId);
    await expect(res, `get payment ${paymentId} after create`).toSucceed();
    return { paymentId, body, read: res.json<Record<string, unknown>>() };
  }

  /** Create consent with X-Consent-Type sepaDirectDebit in the corporate context, the profile's scope (no SCA). */
  createConsent(): Promise<ApiResponse> {
    return this.consents.create({
      consentType: 'sepaDirectDebit',
      body: directDebitConsentBody(),
      headers: this.consentHeaders(),
    });
  }

  /**
   * A direct debit consent authorised through SCA; returns its id. `withoutType`: the same access,
   * validUntil, headers, scope and SCA without X-Consent-Type (what the header alone makes of the
   * consent), one-off: a recurring account-information consent, once authorised, would end the
   * recurring consents parallel checks of the PSU read under.
   */
  async authorisedConsent(o: { withoutType?: boolean } = {}): Promise<string> {
    const { consentId, sca } = await this.consents.createAuthorised({
      consentType: o.withoutType ? undefined : 'sepaDirectDebit',
      body: o.withoutType
        ? { ...directDebitConsentBody(), recurringIndicator: false, frequencyPerDay: 1 }
        : directDebitConsentBody(),
      headers: this.consentHeaders(),
      sca: { headers: { ...this.consents.psuHeaders(), ...this.consentHeaders() } },
    });
    if (sca.scaStatus !== 'finalised')
      block(
        'authorisations.status.ends',
        `the SCA of direct debit consent ${consentId}`,
        `ended ${sca.scaStatus}, not finalised`,
      );
    // Its status may follow the SCA a moment later: awaited within timeouts.scaMs before a confirm uses it.
    const corporate = this.api.target.psuCorporateId;
    await prerequisite('consents.state.valid-after-sca', 'the direct debit consent turns valid after its SCA', () =>
      this.consents.statusSettles(
        consentId,
        'valid',
        `direct debit consent ${consentId}: valid once its SCA is finalised`,
        corporate ? { 'PSU-Corporate-ID': corporate } : {},
      ),
    );
    return consentId;
  }

  private consentHeaders(): HeaderSpec {
    const corp = this.api.target.psuCorporateId;
    return corp ? { 'PSU-Corporate-ID': corp } : {};
  }

  /** The file reference in a FILE_UPLOADED text, by the profile's pattern (or the whole text). */
  fileReference(text: string): string | undefined {
    const pattern = this.api.target.profile.directDebit?.files?.referencePattern;
    if (!pattern) return undefined;
    return new RegExp(pattern).exec(text)?.[0];
  }

  /** GET the generated file where the profile says (directDebit.files.path). */
  fetchFile(reference: string): Promise<ApiResponse> {
    const path = this.api.target.profile.directDebit!.files!.path.replace('{reference}', encodeURIComponent(reference));
    return this.api.get(path);
  }
}

/**
 * A direct debit consent body. The specification calls the consent long-lived ("It is long-lived
 * and ends when the PSU revokes it or when it expires for regulatory or account reasons"):
 * recurring access for as long as the bank grants (`9999-12-31` requests the maximum). Being
 * long-lived, it is not ended by the next direct debit consent of the same PSU, so the consents of
 * parallel tests stand side by side.
 */
export function directDebitConsentBody() {
  return consentRequest({ recurringIndicator: true, frequencyPerDay: 4, validUntil: '9999-12-31' });
}

/**
 * The token scope a direct debit consent is created and authorised with, in the corporate context
 * (profile directDebit.consentScope): the consent's resourceScope `accountinformation`, or
 * section H's `paymentinitiation corporate`.
 */
export function directDebitConsentScope(profile: ApiClient['target']['profile']): string {
  return `${profile.directDebit.consentScope} corporate`;
}

/** Adds `directDebit` (and keeps `consents`): corporate-context clients; consents deleted at teardown. */
export const test = consentsTest.extend<{ directDebit: DirectDebitClient }>({
  directDebit: boxed(async ({ api }, use) => {
    const consents = new ConsentsClient(api.with({ scope: directDebitConsentScope(api.target.profile), bicFi: true }));
    const client = new DirectDebitClient(api.with({ scope: 'paymentinitiation corporate', bicFi: true }), consents);
    await use(client);
    for (const id of consents.created) {
      try {
        await consents.delete(id);
      } catch {
        /* cleanup is best effort; the exchange stays in the evidence */
      }
    }
  }),
});

/** What the suite reads from a pain.008 file: the group totals and each PmtInf. */
export interface Pain008Summary {
  msgId?: string;
  nbOfTxs?: string;
  ctrlSum?: string;
  paymentInfos: {
    creditorId?: string;
    creditorIban?: string;
    sequenceType?: string;
    collectionDate?: string;
    nbOfTxs?: string;
    ctrlSum?: string;
    amounts: string[];
    /** The Ccy attribute of each DrctDbtTxInf's InstdAmt, in the order of `amounts` (undefined: none). */
    currencies: (string | undefined)[];
    /** The MndtId of each DrctDbtTxInf (DrctDbtTx/MndtRltdInf), in the order of `amounts`. */
    mandateIds: (string | undefined)[];
  }[];
}

/** The few DOM members the summary needs (the project compiles without the DOM lib). */
interface XmlNode {
  localName?: string | null;
  textContent: string | null;
  childNodes: ArrayLike<XmlNode>;
  getAttribute?(name: string): string | null;
  getElementsByTagNameNS(ns: string, name: string): ArrayLike<XmlNode>;
}
const byLocalName = (parent: XmlNode, name: string): XmlNode[] => Array.from(parent.getElementsByTagNameNS('*', name));
const childText = (parent: XmlNode | undefined, ...path: string[]): string | undefined => {
  let el: XmlNode | undefined = parent;
  for (const name of path) el = el ? Array.from(el.childNodes).find((n) => n.localName === name) : undefined;
  return el?.textContent?.trim();
};

/** Reads a pain.008 document (any namespace prefix) into a summary. */
export function pain008Summary(xml: string): Pain008Summary {
  // xmlbuilder2 (a tenth of a second to load) only where a file is read.
  const { create } = createRequire(import.meta.url)('xmlbuilder2') as typeof import('xmlbuilder2');
  const root = (create(xml).node as unknown as { documentElement: XmlNode }).documentElement;
  const hdr = byLocalName(root, 'GrpHdr')[0];
  return {
    msgId: childText(hdr, 'MsgId'),
    nbOfTxs: childText(hdr, 'NbOfTxs'),
    ctrlSum: childText(hdr, 'CtrlSum'),
    paymentInfos: byLocalName(root, 'PmtInf').map((p) => ({
      creditorId: byLocalName(p, 'CdtrSchmeId')[0]
        ? byLocalName(byLocalName(p, 'CdtrSchmeId')[0], 'Id').at(-1)?.textContent?.trim()
        : undefined,
      creditorIban: childText(p, 'CdtrAcct', 'Id', 'IBAN'),
      sequenceType: childText(p, 'PmtTpInf', 'SeqTp'),
      collectionDate: childText(p, 'ReqdColltnDt'),
      nbOfTxs: childText(p, 'NbOfTxs'),
      ctrlSum: childText(p, 'CtrlSum'),
      amounts: byLocalName(p, 'DrctDbtTxInf').map((t) => childText(t, 'InstdAmt') ?? ''),
      mandateIds: byLocalName(p, 'DrctDbtTxInf').map((t) => childText(t, 'DrctDbtTx', 'MndtRltdInf', 'MndtId')),
      currencies: byLocalName(p, 'DrctDbtTxInf').map(
        (t) =>
          Array.from(t.childNodes)
            .find((n) => n.localName === 'InstdAmt')
            ?.getAttribute?.('Ccy') ?? undefined,
      ),
    })),
  };
}

/** "12.5" → 1250: amounts compared as integer cents. */
export const cents = (amount: string | undefined): number => {
  if (amount === undefined || !/^\d+(\.\d+)?$/.test(amount)) return Number.NaN;
  const [whole, frac = ''] = amount.split('.');
  return Number(whole) * 100 + Number((frac + '00').slice(0, 2)) + (/[1-9]/.test(frac.slice(2)) ? Number.NaN : 0);
};

/** Problems of a file against the ISO 20022 pain.008.001.02 XSD (xmllint); none when valid. */
export const pain008XsdProblems = validatePain008;
