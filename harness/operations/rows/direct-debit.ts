import { BIC, op, READ } from './common.js';

// H. SEPA direct debit: "Headers: X-Request-ID, X-BicFi, PSU-ID, PSU-Corporate-ID, PSU-IP-Address, PSU-User-Agent."

const section = 'H. SEPA direct debit';

export const DIRECT_DEBIT = [
  op({
    id: 'direct-debit.create',
    name: 'Create payment (direct debit)',
    section,
    group: 'direct-debit',
    method: 'POST',
    template: '{directDebitCreate}',
    features: ['direct-debit'],
    requires: BIC,
    accepts: READ,
    request: 'direct-debit/payment-request',
    response: 'direct-debit/payment-created',
    control: 'direct-debit.create.response',
    prepare: async ({ fill, w }) => ({
      path: fill({}),
      base: w.c.directDebit.psuHeaders(),
      json: w.c.directDebit.body(),
    }),
  }),
  op({
    id: 'direct-debit.get',
    name: 'Get payment (direct debit)',
    section,
    group: 'direct-debit',
    method: 'GET',
    template: '{directDebitPayments}/{paymentId}',
    features: ['direct-debit'],
    requires: BIC,
    accepts: READ,
    response: 'direct-debit/payment',
    control: 'direct-debit.get.fields',
    prepare: async ({ fill, w }) => ({
      path: fill({ paymentId: await w.directDebitPayment() }),
      base: w.c.directDebit.psuHeaders(),
    }),
  }),
  op({
    id: 'direct-debit.confirm',
    name: 'Confirm payment (direct debit)',
    section,
    group: 'direct-debit',
    method: 'PUT',
    template: '{directDebitPayments}/confirm',
    features: ['direct-debit'],
    requires: [...BIC, 'Consent-ID'],
    accepts: READ,
    request: 'direct-debit/confirm-request',
    response: 'direct-debit/confirm-response',
    control: 'direct-debit.confirm.file-uploaded',
    prepare: async ({ fill, w }) => {
      const { directDebit } = w.c;
      const paymentId = await w.directDebitPayment('dd-to-confirm');
      const consentId = await w.directDebitConsent();
      return {
        path: fill({}),
        base: { ...directDebit.psuHeaders(), 'Consent-ID': consentId },
        json: { paymentIds: [paymentId] },
        state: async () =>
          String((await directDebit.get(paymentId)).json<{ transactionStatus?: string }>().transactionStatus),
      };
    },
  }),
];
