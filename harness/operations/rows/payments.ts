import { combinationOf, idOf } from '../calls.js';
import type { PrepKit, Prepared } from '../types.js';
import { AUTH_START, AUTH_UPDATE, BIC, op, READ } from './common.js';

// D. Payment initiation: every sub-resource under the payment service and product the operation
// is called on (harness/operations/claims.ts, `paymentCombination`), filled into its path.

const section = 'D. Payment initiation';
const under = '{payments}/{payment-service}/{payment-product}';
const PAYMENT = ['payments'];
const CANCELLATION = ['payments', 'payments.cancellation-authorisation'];

/** The test's payment (initiated, not authorised), read. */
const onPayment = async (k: PrepKit): Promise<Prepared> => ({
  path: k.fill({ paymentId: idOf(await k.w.payment(combinationOf(k))) }),
});

/** A payment whose cancellation was asked for, so that its cancellation authorisations exist. */
const onCancelled = async (k: PrepKit): Promise<string> =>
  k.fill({ paymentId: idOf(await k.w.cancelled(combinationOf(k))) });

export const PAYMENTS = [
  op({
    id: 'payments.initiate',
    name: 'Initiate payment',
    section,
    group: 'payments',
    method: 'POST',
    template: under,
    features: PAYMENT,
    requires: [...BIC, 'PSU-IP-Address'],
    accepts: ['signature', 'psu-forwarded', 'redirect', 'notification', 'explicit-authorisation', 'rejection-no-funds'],
    response: 'payments/payment-initiated',
    control: 'payments.initiate.response',
    prepare: async (k) => {
      const { payments } = k.w.c;
      const c = combinationOf(k);
      const path = k.fill({});
      return {
        path,
        base: { ...k.psu, ...payments.productHeaders(c) },
        json: payments.body(c),
        created: (b) => {
          if (typeof b.paymentId === 'string') payments.created.push(`${path}/${b.paymentId}`);
        },
      };
    },
  }),
  op({
    id: 'payments.read',
    name: 'Read payment',
    section,
    group: 'payments',
    method: 'GET',
    template: `${under}/{paymentId}`,
    features: PAYMENT,
    requires: BIC,
    accepts: READ,
    response: 'payments/payment',
    control: 'payments.read.fields',
    prepare: onPayment,
  }),
  op({
    id: 'payments.status',
    name: 'Payment status',
    section,
    group: 'payments',
    method: 'GET',
    template: `${under}/{paymentId}/status`,
    features: PAYMENT,
    requires: BIC,
    accepts: READ,
    response: 'payments/payment-status',
    control: 'payments.status.response',
    prepare: onPayment,
  }),
  op({
    id: 'payments.authorisations.start',
    name: 'Start authorisation (payment)',
    section,
    group: 'payments',
    method: 'POST',
    template: `${under}/{paymentId}/authorisations`,
    features: [...PAYMENT, 'authorisations'],
    requires: BIC,
    accepts: AUTH_START,
    response: 'authorisations/authorisation-created',
    control: 'payments.authorisations.create',
    prepare: async (k) => {
      // A payment of its own: the authorisation updated by another operation may have finalised the other.
      const paymentId = idOf(await k.w.payment(combinationOf(k), 'payment-to-authorise'));
      return {
        ...k.startOn(k.fill({ paymentId }), 'authorisationIds'),
        json:
          k.w.profile.payments?.startAuthorisationBody === 'operations-table'
            ? { psuData: { password: 'sandbox' } }
            : undefined,
      };
    },
  }),
  op({
    id: 'payments.authorisations.list',
    name: 'List authorisations (payment)',
    section,
    group: 'payments',
    method: 'GET',
    template: `${under}/{paymentId}/authorisations`,
    features: [...PAYMENT, 'authorisations'],
    requires: BIC,
    accepts: READ,
    response: 'authorisations/authorisation-list',
    control: 'payments.authorisations.list',
    prepare: onPayment,
  }),
  op({
    id: 'payments.authorisations.status',
    name: 'Authorisation SCA status (payment)',
    section,
    group: 'payments',
    method: 'GET',
    template: `${under}/{paymentId}/authorisations/{authorisationId}`,
    features: [...PAYMENT, 'authorisations'],
    requires: BIC,
    accepts: READ,
    response: 'authorisations/sca-status',
    control: 'payments.authorisations.sca-status',
    prepare: async (k) => k.onAuthorisation(await k.w.paymentAuthorisation(combinationOf(k))),
  }),
  op({
    id: 'payments.authorisations.update',
    name: 'Update PSU data (payment)',
    section,
    group: 'payments',
    method: 'PUT',
    template: `${under}/{paymentId}/authorisations/{authorisationId}`,
    features: [...PAYMENT, 'authorisations'],
    requires: BIC,
    accepts: AUTH_UPDATE,
    request: 'authorisations/start-request',
    response: 'authorisations/authorisation-started',
    control: 'payments.authorisations.start',
    prepare: async (k) => k.onAuthorisation(await k.w.paymentAuthorisation(combinationOf(k))),
  }),
  op({
    id: 'payments.cancel',
    name: 'Cancel payment',
    section,
    group: 'payments',
    method: 'DELETE',
    template: `${under}/{paymentId}`,
    features: PAYMENT,
    requires: BIC,
    accepts: READ,
    control: 'payments.cancel.response',
    prepare: async (k) => {
      const basePath = await k.w.payment(combinationOf(k), 'payment-to-cancel');
      return {
        path: k.fill({ paymentId: idOf(basePath) }),
        state: () => k.statusOf(`${basePath}/status`, 'transactionStatus'),
      };
    },
  }),
  op({
    id: 'payments.cancellation-authorisations.start',
    name: 'Start cancellation authorisation',
    section,
    group: 'payments',
    method: 'POST',
    template: `${under}/{paymentId}/cancellation-authorisations`,
    features: CANCELLATION,
    requires: BIC,
    accepts: AUTH_START,
    response: 'authorisations/authorisation-created',
    control: 'payments.cancel.authorisations',
    prepare: async (k) => k.startOn(await onCancelled(k), 'cancellationIds'),
  }),
  op({
    id: 'payments.cancellation-authorisations.list',
    name: 'List cancellation authorisations',
    section,
    group: 'payments',
    method: 'GET',
    template: `${under}/{paymentId}/cancellation-authorisations`,
    features: CANCELLATION,
    requires: BIC,
    accepts: READ,
    control: 'payments.cancel.authorisations',
    prepare: async (k) => ({ path: await onCancelled(k) }),
  }),
  op({
    id: 'payments.cancellation-authorisations.status',
    name: 'Cancellation SCA status',
    section,
    group: 'payments',
    method: 'GET',
    template: `${under}/{paymentId}/cancellation-authorisations/{cancellationId}`,
    features: CANCELLATION,
    requires: BIC,
    accepts: READ,
    response: 'authorisations/sca-status',
    control: 'payments.cancel.authorisations',
    prepare: async (k) => k.onAuthorisation(await k.w.cancellationAuthorisation(combinationOf(k))),
  }),
  op({
    id: 'payments.cancellation-authorisations.update',
    name: 'Update cancellation PSU data',
    section,
    group: 'payments',
    method: 'PUT',
    template: `${under}/{paymentId}/cancellation-authorisations/{cancellationId}`,
    features: CANCELLATION,
    requires: BIC,
    accepts: AUTH_UPDATE,
    request: 'authorisations/start-request',
    control: 'payments.cancel.update-psu-data',
    prepare: async (k) => k.onAuthorisation(await k.w.cancellationAuthorisation(combinationOf(k))),
  }),
];
