import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { isValidIBAN } from 'ibantools';
import { loadProfile, type Profile } from '../../harness/config/profile.js';
import { COMBINATIONS, label, paymentBody, PRODUCTS } from '../../harness/areas/payments.js';
import type { Json } from '../../harness/values/json.js';

// payments.accounts: the test data of each product's bodies, one place for every payment body.

type Body = Record<string, Json> & { payments?: Record<string, Json>[] };
const parts = (b: Body): Record<string, Json>[] => b.payments ?? [b];

const OTHER: NonNullable<NonNullable<Profile['payments']>['accounts']> = {
  'sepa-credit-transfers': {
    debtorAccount: { iban: 'FI2112345600000785', currency: 'EUR' },
    creditorAccount: { iban: 'NL91ABNA0417164300', currency: 'EUR' },
    creditorAgent: 'ABNANL2AXXX',
    currency: 'EUR',
  },
  domestic: {
    debtorAccount: { bban: '12345600000785', currency: 'EUR' },
    creditorAccount: { bban: '98765400000123', currency: 'EUR' },
    currency: 'EUR',
  },
  international: {
    debtorAccount: { iban: 'FI2112345600000785', currency: 'EUR' },
    creditorAccount: { iban: 'DE89370400440532013000', currency: 'CHF' },
    currency: 'CHF',
  },
  'international-tp': {
    debtorAccount: { iban: 'FI2112345600000785', currency: 'EUR' },
    creditorAccount: { iban: 'DE89370400440532013000' },
    currency: 'JPY',
  },
  'swedish-giro': {
    debtorAccount: { iban: 'NL91ABNA0417164300', currency: 'EUR' },
    creditorAccount: { bban: '52477472' },
    currency: 'EUR',
  },
};

const reference = () => loadProfile('reference');

function withAccounts(accounts: typeof OTHER | undefined, giroCreditor?: 'creditorGiro' | 'creditorAccount'): Profile {
  const base = reference();
  const payments = { ...base.payments, ...(giroCreditor ? { giroCreditor } : {}) };
  if (accounts) payments.accounts = accounts;
  else delete payments.accounts;
  return { ...base, payments };
}

for (const giroCreditor of ['creditorGiro', 'creditorAccount'] as const) {
  test(`a profile with other accounts gives bodies with those accounts for every service and product (giro ${giroCreditor})`, () => {
    const profile = withAccounts(OTHER, giroCreditor);
    for (const c of COMBINATIONS) {
      const given = OTHER[c.product]!;
      const body = paymentBody(c, profile) as Body;
      expect(body.debtorAccount, `${label(c)}: $.debtorAccount`).toEqual(given.debtorAccount);
      for (const [i, part] of parts(body).entries()) {
        const at = c.service === 'bulk-payments' ? `$.payments[${i}]` : '$';
        expect(
          (part.instructedAmount as { currency: string }).currency,
          `${label(c)}: ${at}.instructedAmount.currency`,
        ).toBe(given.currency);
        if (c.product === 'swedish-giro' && giroCreditor === 'creditorGiro') {
          expect(
            part.creditorAccount,
            `${label(c)}: ${at}.creditorAccount (the giro names the creditor)`,
          ).toBeUndefined();
          expect(part.creditorGiro, `${label(c)}: ${at}.creditorGiro`).toBeDefined();
        } else {
          expect(part.creditorAccount, `${label(c)}: ${at}.creditorAccount`).toEqual(given.creditorAccount);
        }
        if (given.creditorAgent) {
          expect(part.creditorAgent, `${label(c)}: ${at}.creditorAgent`).toBe(given.creditorAgent);
          expect(part.creditorAgentName, `${label(c)}: ${at}.creditorAgentName`).toBeUndefined();
        }
      }
    }
  });
}

test("a body's accounts are copies: editing one body leaves the profile and the next body as they were", () => {
  const profile = withAccounts(structuredClone(OTHER));
  const c = COMBINATIONS.find((x) => x.service === 'payments' && x.product === 'sepa-credit-transfers')!;
  const first = paymentBody(c, profile) as Body;
  (first.debtorAccount as { iban: string }).iban = '';
  (first.creditorAccount as { iban: string }).iban = '';
  const next = paymentBody(c, profile) as Body;
  expect(next.debtorAccount).toEqual(OTHER['sepa-credit-transfers']!.debtorAccount);
  expect(next.creditorAccount).toEqual(OTHER['sepa-credit-transfers']!.creditorAccount);
});

test('a product the profile gives no accounts gets generated data of its kind', () => {
  const profile = withAccounts({ 'sepa-credit-transfers': OTHER['sepa-credit-transfers'] });
  for (const product of PRODUCTS.filter((p) => p !== 'sepa-credit-transfers')) {
    const body = paymentBody({ service: 'payments', product }, profile) as Body;
    const debtor = body.debtorAccount as { iban?: string; bban?: string; clearingNumber?: string; currency?: string };
    if (product === 'domestic') {
      expect(debtor.bban, `${product}: a generated bban`).toMatch(/^\d{7,10}$/);
      expect(debtor.clearingNumber, `${product}: a generated clearingNumber`).toMatch(/^\d{4}$/);
      expect(debtor.currency).toBe('SEK');
    } else {
      expect(isValidIBAN(debtor.iban ?? ''), `${product}: a generated IBAN, got ${debtor.iban}`).toBe(true);
    }
  }
  const none = withAccounts(undefined);
  const sepa = paymentBody({ service: 'payments', product: 'sepa-credit-transfers' }, none) as Body;
  expect(sepa.creditorAgent).toBe('COBADEFFXXX');
  expect(sepa.creditorAgentName).toBe('Commerzbank');
  // The reference profile's accounts are the sandbox's: its SEPA agent keeps its name.
  const ref = paymentBody({ service: 'payments', product: 'sepa-credit-transfers' }, reference()) as Body;
  expect(ref.debtorAccount).toEqual({ iban: 'SE4550000000058398257466', currency: 'EUR' });
  expect([ref.creditorAgent, ref.creditorAgentName]).toEqual(['COBADEFFXXX', 'Commerzbank']);
});

test('a profile IBAN whose check digits fail is refused when the profile is loaded, naming the field', () => {
  const dir = mkdtempSync(join(tmpdir(), 'obg-accounts-'));
  const file = join(dir, 'bad.json');
  const bad = structuredClone(OTHER);
  bad.international!.creditorAccount = { iban: 'DE00370400440532013000' };
  writeFileSync(file, JSON.stringify(withAccounts(bad)));
  expect(() => loadProfile(file)).toThrow(
    /payments\.accounts\.international\.creditorAccount\.iban: "DE00370400440532013000"/,
  );
  const neither = structuredClone(OTHER) as Record<string, unknown>;
  neither.domestic = { debtorAccount: { clearingNumber: '8327' } };
  writeFileSync(file, JSON.stringify(withAccounts(neither as typeof OTHER)));
  expect(() => loadProfile(file)).toThrow(/payments\.accounts\.domestic\.debtorAccount/);
  // ISO 13616 judges: a North Macedonian IBAN that passes mod-97 but not the national check loads.
  const national = structuredClone(OTHER);
  national.international!.creditorAccount = { iban: 'MK59300000000001234' };
  writeFileSync(file, JSON.stringify(withAccounts(national)));
  expect(loadProfile(file).payments.accounts?.international?.creditorAccount?.iban).toBe('MK59300000000001234');
});
