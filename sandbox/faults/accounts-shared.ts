import type { FastifyInstance } from 'fastify';
import { accountsOf, type AccountService } from '../accounts/service.js';

// What the account faults (accounts.ts, accounts-transactions.ts) share: the routes they bend,
// the shapes of the bodies they edit, and the wrap of one method of the account service.

export const ANY = /^\/psd2\/accountinformation\/v1\/accounts/;
export const LIST = /\/accountinformation\/v1\/accounts$/;
export const DETAIL = /\/accounts\/:accountId$/;
export const BALANCES = /\/accounts\/:accountId\/balances$/;
export const TRANSACTIONS = /\/accounts\/:accountId\/transactions$/;
export const TRANSACTION = /\/accounts\/:accountId\/transactions\/:transactionId$/;
export const BY_ID = /\/accounts\/:accountId/;
export const CONSENT = /^\/psd2\/consent\/v1\/consents\/:consentId$/;

export type Query = Record<string, unknown>;
export type Tx = Record<string, unknown> & { bookingDate?: string; valueDate?: string; transactionId?: string };
export type TxList = {
  account?: { iban?: string };
  transactions: { booked?: Tx[]; pending?: Tx[]; _links?: Record<string, { href: string }> };
};

/** Replaces one method of the app's account service. */
export function wrap<K extends keyof AccountService>(
  app: FastifyInstance,
  name: K,
  make: (original: AccountService[K], service: AccountService) => AccountService[K],
): void {
  const service = accountsOf(app);
  const original = (service[name] as (...a: unknown[]) => unknown).bind(service) as AccountService[K];
  service[name] = make(original, service);
}
