import { isoDay, today } from '../../spec/iso8601.js';
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { validatePain008 } from '../../spec/iso20022/pain008.js';
import { usable, type Consent } from '../consents/store.js';
import { BgError, formatError } from '../errors.js';
import { requestHeader } from '../plugins/guard.js';
import { assertPsuIpAddressFormat } from '../payments/headers.js';
import { BoundedMap } from '../store.js';
import { buildPain008, type Collection, type Pain008File } from './pain008.js';
import {
  DIRECT_DEBIT_CHECKS,
  type DirectDebitCheck,
  type DirectDebitPayment,
  type DirectDebitRequest,
  type DirectDebitStatus,
} from './payment.js';

/** The sandbox's test mandate: a collection under it fails the debtor bank's mandate check (RJCT). */
export const REJECTED_MANDATE_ID = 'SBX-MANDATE-REJECTED';

/** A generated collection file, kept so that a sandbox user can fetch it by its reference. */
export interface DirectDebitFile extends Pain008File {
  clientId: string;
  consentId: string;
  /** The payments the file carries, in the order confirmed. */
  paymentIds: string[];
  createdAt: number;
}

/**
 * SEPA direct debit (endpoint section H): payments, their validation, the confirmation that
 * builds and "uploads" a pain.008 file, and the file store. Each step is a method or a list
 * on this object, so that a fault can wrap or shorten it without touching the clean routes.
 */
export class DirectDebitService {
  readonly payments: BoundedMap<string, DirectDebitPayment>;
  readonly files: BoundedMap<string, DirectDebitFile>;
  /** Business rules on the create body, run in order after the JSON Schema. */
  readonly checks: DirectDebitCheck[] = [...DIRECT_DEBIT_CHECKS];
  /** Headers of section H the sandbox requires on create and confirm (beyond X-Request-ID and X-BicFi). */
  readonly requiredHeaders: string[] = ['PSU-IP-Address', 'PSU-Corporate-ID'];
  readonly rejectedMandateIds = new Set([REJECTED_MANDATE_ID]);

  constructor(max: number) {
    this.payments = new BoundedMap(max);
    this.files = new BoundedMap(Math.min(max, 1000));
  }

  /** Direct debit needs a `paymentinitiation corporate` token (Authentication 2); the guard checked the API scope. */
  assertCorporate(req: FastifyRequest): void {
    if (!req.token?.scopes.has('corporate')) {
      throw new BgError(
        401,
        'TOKEN_INVALID',
        `direct debit needs the scope "paymentinitiation corporate"; the token has "${[...(req.token?.scopes ?? [])].join(' ')}"`,
      );
    }
  }

  assertHeaders(req: FastifyRequest): void {
    for (const name of this.requiredHeaders) {
      if (!requestHeader(req, name)) throw formatError(`header ${name} is required on direct debit operations`, name);
    }
    assertPsuIpAddressFormat(req);
  }

  /** Throws 400 FORMAT_ERROR naming the field of the first broken rule. */
  validate(body: DirectDebitRequest, day = today()): void {
    for (const check of this.checks) {
      const p = check.run(body, day);
      if (p) throw formatError(p.text, p.path);
    }
  }

  /** The consent named by Consent-ID, known to this TPP; throws when absent or unknown. */
  consentFor(req: FastifyRequest, consents: Map<string, Consent>): Consent | undefined {
    const id = requestHeader(req, 'Consent-ID');
    if (!id) throw formatError('header Consent-ID (the direct debit consent) is required on confirm', 'Consent-ID');
    const c = consents.get(id);
    if (!c || c.clientId !== req.token?.clientId)
      throw new BgError(403, 'CONSENT_UNKNOWN', `no consent ${id} for this TPP`, 'Consent-ID');
    return c;
  }

  /** A confirm needs an authorised (valid) direct debit consent. */
  consentProblem(c: Consent): BgError | undefined {
    if (c.type !== 'sepaDirectDebit')
      return new BgError(
        401,
        'CONSENT_INVALID',
        `consent ${c.consentId} is not a direct debit consent (create it with X-Consent-Type: sepaDirectDebit)`,
        'Consent-ID',
      );
    const u = usable(c);
    if (u === 'expired') return new BgError(401, 'CONSENT_EXPIRED', `consent ${c.consentId} has expired`, 'Consent-ID');
    if (u !== 'ok')
      return new BgError(
        401,
        'CONSENT_INVALID',
        `consent ${c.consentId} is not authorised (consentStatus ${c.status})`,
        'Consent-ID',
      );
    return undefined;
  }

  /** The payments of a confirm, in order; throws for unknown ones and for ones already confirmed. */
  confirmable(ids: string[], clientId: string): DirectDebitPayment[] {
    return ids.map((id, i) => {
      const p = this.payments.get(id);
      if (!p || p.clientId !== clientId)
        throw new BgError(
          400,
          'RESOURCE_UNKNOWN',
          `paymentIds[${i}]: no direct debit payment ${id} for this TPP`,
          `paymentIds[${i}]`,
        );
      if (p.transactionStatus !== 'RCVD' || p.fileReference) {
        throw new BgError(
          409,
          'STATUS_INVALID',
          `paymentIds[${i}]: payment ${id} is already confirmed (file ${p.fileReference}, transactionStatus ${p.transactionStatus})`,
          `paymentIds[${i}]`,
        );
      }
      return p;
    });
  }

  /** A new file reference; it is also the file's MsgId (at most 35 characters). */
  newReference(now = new Date()): string {
    return `DD-${isoDay(now).replace(/-/g, '')}-${randomBytes(4).toString('hex').toUpperCase()}`;
  }

  build(collections: Collection[], meta: { reference: string; createdAt: Date; initiatingParty: string }): Pain008File {
    return buildPain008(collections, meta);
  }

  xmlProblems(xml: string): Promise<string[]> {
    return validatePain008(xml);
  }

  /** The debtor bank's mandate check, made when the file arrives. */
  mandateCheck(p: DirectDebitPayment): DirectDebitStatus {
    return this.rejectedMandateIds.has(p.request.mandateRelatedInformation.mandateId) ? 'RJCT' : 'ACCP';
  }

  /**
   * Builds the pain.008 file for the payments, validates it against the XSD, and "uploads" it:
   * keeps it in the file store and lets the debtor bank's mandate check set each status.
   */
  async upload(
    payments: DirectDebitPayment[],
    o: { clientId: string; consentId: string; initiatingParty: string },
  ): Promise<DirectDebitFile> {
    const createdAt = new Date();
    const reference = this.newReference(createdAt);
    const built = this.build(
      payments.map((p) => ({ paymentId: p.paymentId, request: p.request })),
      { reference, createdAt, initiatingParty: o.initiatingParty },
    );
    const problems = await this.xmlProblems(built.xml);
    if (problems.length)
      throw new Error(
        `pain.008 file ${reference} does not validate against the XSD: ${problems.slice(0, 3).join('; ')}`,
      );
    const file: DirectDebitFile = {
      ...built,
      clientId: o.clientId,
      consentId: o.consentId,
      paymentIds: payments.map((p) => p.paymentId),
      createdAt: createdAt.getTime(),
    };
    this.files.set(reference, file);
    for (const p of payments) {
      p.fileReference = reference;
      p.transactionStatus = this.mandateCheck(p);
    }
    return file;
  }
}
