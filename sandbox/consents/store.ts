import { today } from '../../spec/iso8601.js';

export type ConsentStatus = 'received' | 'rejected' | 'valid' | 'revokedByPsu' | 'expired' | 'terminatedByTpp';

export interface AccountReference {
  iban?: string;
  bban?: string;
  pan?: string;
  maskedPan?: string;
  msisdn?: string;
  currency?: string;
}

export interface AccountAccess {
  accounts?: AccountReference[];
  balances?: AccountReference[];
  transactions?: AccountReference[];
  [other: string]: unknown;
}

/** A consent as the sandbox keeps it (specification: Consent resource). */
export interface Consent {
  consentId: string;
  /** 'ais' for account information; 'sepaDirectDebit' when created with X-Consent-Type: sepaDirectDebit. */
  type: 'ais' | 'sepaDirectDebit';
  clientId: string;
  psuId: string;
  corporateId?: string;
  context: 'private' | 'corporate';
  access: AccountAccess;
  recurringIndicator: boolean;
  /** The adjusted date (never later than asked). */
  validUntil: string;
  frequencyPerDay: number;
  combinedServiceIndicator: boolean;
  status: ConsentStatus;
  createdAt: number;
}

/** A consent is usable for reads only while valid and not past its validUntil. */
export function usable(c: Consent, day = today()): 'ok' | 'expired' | 'invalid' {
  if (c.status === 'expired' || (c.status === 'valid' && c.validUntil < day)) return 'expired';
  return c.status === 'valid' ? 'ok' : 'invalid';
}

/**
 * Ends (expired) every other valid recurring consent of `c`'s PSU, kind and TPP: what the
 * authorisation of a new recurring account-information consent does to the former one.
 */
export function expireFormerRecurring(consents: Iterable<Consent>, c: Consent): void {
  for (const other of consents) {
    if (
      other !== c &&
      other.status === 'valid' &&
      other.recurringIndicator &&
      other.psuId === c.psuId &&
      other.type === c.type &&
      other.clientId === c.clientId
    )
      other.status = 'expired';
  }
}
