import type { ScaEngine } from '../sca/engine.js';
import { BoundedMap } from '../store.js';
import { statusAfterSca } from './rules.js';
import type { Basket, Payment } from './store.js';

/** What moves payments and baskets when their authorisations end (States > Payment, basket and cancellation). */
export class PaymentService {
  readonly payments: BoundedMap<string, Payment>;
  readonly baskets: BoundedMap<string, Basket>;

  /** `sca` is read when needed: the engine is built beside this service. */
  constructor(
    max: number,
    private readonly engine: () => ScaEngine,
  ) {
    this.payments = new BoundedMap(max);
    this.baskets = new BoundedMap(max);
  }

  private get sca(): ScaEngine {
    return this.engine();
  }

  private finalised(type: 'payment' | 'basket', id: string): number {
    return this.sca.of(type, id).filter((a) => a.status === 'finalised').length;
  }

  /** Still waiting for (some of) its SCA. */
  awaitingSca(p: Payment): boolean {
    return p.status === 'RCVD' || p.status === 'PATC';
  }

  /** Moves a payment after one of its authorisations ended; multilevel SCA counts the finalised ones. */
  paymentScaEnded(paymentId: string, outcome: 'finalised' | 'failed'): void {
    const p = this.payments.get(paymentId);
    if (!p || !this.awaitingSca(p)) return;
    if (outcome === 'failed') p.status = 'RJCT';
    else p.status = this.finalised('payment', paymentId) >= p.signers ? this.accept(p) : 'PATC';
  }

  /** The status of a payment whose SCA is complete. */
  accept(p: Payment): Payment['status'] {
    return statusAfterSca(p);
  }

  /** A finalised cancellation authorisation cancels the payment; a failed one leaves it as it was. */
  cancellationScaEnded(paymentId: string, outcome: 'finalised' | 'failed'): void {
    const p = this.payments.get(paymentId);
    if (!p?.cancellation || p.cancellation.status !== 'RCVD') return;
    p.cancellation.status = outcome === 'finalised' ? 'CANC' : 'RJCT';
    if (outcome === 'finalised') p.status = 'CANC';
  }

  /** One SCA on a basket authorises every payment in it. */
  basketScaEnded(basketId: string, outcome: 'finalised' | 'failed'): void {
    const b = this.baskets.get(basketId);
    if (!b || (b.status !== 'RCVD' && b.status !== 'PATC')) return;
    if (outcome === 'failed') {
      b.status = 'RJCT';
      return;
    }
    if (this.finalised('basket', basketId) < b.signers) {
      b.status = 'PATC';
      return;
    }
    b.status = 'ACTC';
    for (const id of b.paymentIds) {
      const p = this.payments.get(id);
      if (p && this.awaitingSca(p)) p.status = this.accept(p);
    }
  }

  /** A basket may be deleted until a first (partial) authorisation has been applied. */
  basketDeletable(b: Basket): boolean {
    return this.finalised('basket', b.basketId) === 0;
  }
}
