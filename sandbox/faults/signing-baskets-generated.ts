import type { Fault } from './fault.js';
import { beforeHandler } from '../hooks.js';

// A fault that sits between the hand-written checks' points and that only the generated phase
// (tests/signing-baskets/generated/) finds: the hand-written check names one unknown payment alone.

const BASKETS = /^\/psd2\/paymentinitiation\/v1\/signing-baskets$/;

const faults: Fault[] = [
  {
    id: 'signing-baskets.unknown-payment-after-first-accepted',
    description:
      'a basket is checked by its first payment id only: an unknown payment id after a known first one is dropped and the basket created',
    breaks: ['signing-baskets.create.unknown-payment'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: BASKETS }, (req) => {
        const body = req.body as { paymentIds?: unknown } | undefined;
        const ids = body?.paymentIds;
        if (!Array.isArray(ids) || ids.length < 2 || !app.sandbox.payments.payments.has(String(ids[0]))) return;
        body!.paymentIds = ids.filter((id) => app.sandbox.payments.payments.has(String(id)));
      }),
  },
];

export default faults;
