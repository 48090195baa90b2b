import type { PaymentProduct, PaymentService } from '../../schemas/payments/products.js';

export type { PaymentProduct, PaymentService };

/** transactionStatus values (reference-facts, Enumerations). */
export type TransactionStatus =
  | 'ACCC'
  | 'ACCP'
  | 'ACSC'
  | 'ACSP'
  | 'ACTC'
  | 'ACWC'
  | 'ACWP'
  | 'RCVD'
  | 'PDNG'
  | 'RJCT'
  | 'CANC'
  | 'ACFC'
  | 'PATC'
  | 'PART';

/** A payment as the sandbox keeps it: the submitted body, untouched, and its state. */
export interface Payment {
  paymentId: string;
  service: PaymentService;
  product: PaymentProduct;
  clientId: string;
  psuId: string;
  corporateId?: string;
  context: 'private' | 'corporate';
  /** The request body exactly as submitted (read returns it unchanged). */
  body: Record<string, unknown>;
  status: TransactionStatus;
  /** Finalised authorisations needed before the payment is accepted (multilevel SCA: more than one). */
  signers: number;
  /** A cancellation waiting for its authorisation (202). */
  cancellation?: { status: 'RCVD' | 'CANC' | 'RJCT' };
  createdAt: number;
}

/** A signing basket: several payments authorised with one SCA. */
export interface Basket {
  basketId: string;
  clientId: string;
  psuId: string;
  corporateId?: string;
  context: 'private' | 'corporate';
  paymentIds: string[];
  status: TransactionStatus;
  signers: number;
  createdAt: number;
}
