import { faker } from '@faker-js/faker/locale/en';
import { composeIBAN } from 'ibantools';
import type { PaymentProduct, Profile } from '../config/profile.js';
import { businessDate, isoDate } from '../values/dates.js';
import type { Json } from '../values/json.js';
import type { Combination } from './payment-combinations.js';

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
      requestedExecutionDate: businessDate(3),
      payments: [creditorPart(c.product, profile), creditorPart(c.product, profile)],
    };
  }
  const single = {
    ...creditorPart(c.product, profile),
    debtorAccount: debtor,
    debtorAccountMessage: `Payment ${reference()}`,
  };
  if (c.service === 'periodic-payments') {
    const start = businessDate(7);
    return {
      ...single,
      startDate: start,
      endDate: isoDate(372),
      frequency: 'Monthly',
      executionRule: 'following',
      dayOfExecution: String(Number(start.slice(8, 10))),
    };
  }
  // The baseline's dates are business days within every horizon (harness/areas/value-spaces.ts).
  return { ...single, requestedExecutionDate: businessDate(3) };
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
