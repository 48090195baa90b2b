import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import type { Combination } from '../../harness/areas/payment-combinations.js';
import { loadProfile } from '../../harness/config/profile.js';
import type { Target } from '../../harness/config/target.js';
import type { ApiClient } from '../../harness/http/client.js';
import type { ApiResponse } from '../../harness/http/response.js';
import { prepKit } from '../../harness/operations/calls.js';
import { paymentCombination } from '../../harness/operations/claims.js';
import { operationAt } from '../../harness/operations/controls.js';
import { OPERATIONS, type World } from '../../harness/operations/table.js';
import { schemaRegistry } from '../../harness/values/schemas.js';

// A new operation is one row of the table: its preparation, given the world's shared set-up, makes
// a call that is a call of that very operation (matched back to it under the profile's paths).

const profile = loadProfile('reference');
const paths = profile.paths as Record<string, string>;
const target = { baseUrl: 'http://127.0.0.1:1/bank', authUrl: 'http://127.0.0.1:1', profile } as unknown as Target;
const answer = { status: 200, json: () => ({}) } as unknown as ApiResponse;
const api = { get: async () => answer } as unknown as ApiClient;

/** A world whose resources are names (the key they were asked under), the paths as the sandbox gives them. */
function namedWorld(): World {
  const payment = (c: Combination, key = 'payment') => `${paths.payments}/${c.service}/${c.product}/${key}`;
  const authorisation = (base: string, sub: string) => ({
    href: `${base}/${sub}/a1`,
    method: 'mbid',
    offered: ['mbid', 'mbid_same_device'],
  });
  return {
    c: {
      consents: { psuHeaders: () => ({}), basePath: (id) => `${paths.consents}/${id}`, created: [] },
      payments: { productHeaders: () => ({}), body: () => ({}), created: [] },
      baskets: { read: async () => answer, created: [] },
      directDebit: { psuHeaders: () => ({}), body: () => ({}), get: async () => answer },
    },
    profile,
    oneOffConsent: () => ({}),
    directoryIds: async () => ({ bicFi: 'ESSESESS', cityId: 'city-1', isoCountryCode: 'SE' }),
    consent: async (key = 'consent') => key,
    consentAuthorisation: async () => authorisation(`${paths.consents}/consent-for-authorisation`, 'authorisations'),
    accountRead: async () => ({ consentId: 'account-consent', accountId: 'account-1', transactionId: 'tx-1' }),
    payment: async (c, key) => payment(c, key),
    paymentAuthorisation: async (c) => authorisation(payment(c, 'payment-for-authorisation'), 'authorisations'),
    cancelled: async (c) => payment(c, 'to-cancel'),
    cancellationAuthorisation: async (c) => authorisation(payment(c, 'to-cancel'), 'cancellation-authorisations'),
    basketPayments: async () => ['payment-1'],
    basket: async (key = 'basket') => key,
    basketAuthorisation: async () => authorisation(`${paths.signingBaskets}/basket`, 'authorisations'),
    directDebitPayment: async (key = 'dd-payment') => key,
    directDebitConsent: async () => 'dd-consent',
  };
}

test("every row's preparation makes a call of its own operation: its path, its consent for an account read, its valid body", async () => {
  const world = namedWorld();
  for (const o of OPERATIONS) {
    const c = o.group === 'payments' ? paymentCombination(target, o) : undefined;
    const p = await o.prepare(prepKit({ o, w: world, c, api, psu: {} }));
    expect(operationAt(target, o.method, `http://127.0.0.1:1/bank/${p.path}`), `${o.id}: ${p.path}`).toBe(o.id);
    if (o.group === 'accounts') expect(p.accountRead, `${o.id} reads under its consent`).toBe('account-consent');
    if (o.request) expect(p.json, `${o.id} sends its valid body`).toBeDefined();
  }
});

test('every start of an authorisation sends a body of its request schema and hands on the methods its creation offered', async () => {
  const world = namedWorld();
  const starts = OPERATIONS.filter((o) => o.method === 'PUT' && o.request === 'authorisations/start-request');
  expect(starts.map((o) => o.id).sort()).toEqual([
    'consents.authorisations.update',
    'payments.authorisations.update',
    'payments.cancellation-authorisations.update',
    'signing-baskets.authorisations.update',
  ]);
  for (const o of starts) {
    const c = o.group === 'payments' ? paymentCombination(target, o) : undefined;
    const p = await o.prepare(prepKit({ o, w: world, c, api, psu: {} }));
    expect(schemaRegistry().check(o.request!, p.json), `${o.id}: ${JSON.stringify(p.json)}`).toEqual([]);
    expect(p.offered, `${o.id}: the offered methods`).toEqual(['mbid', 'mbid_same_device']);
  }
});
