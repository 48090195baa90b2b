import type { Fault } from './fault.js';
import { beforeHandler, rewriteJson } from '../hooks.js';

// A fault that sits between the hand-written checks' points and that only the generated phase
// (tests/signing-baskets/properties/) finds: the hand-written check names one unknown payment alone,
// and reads back a basket of two payments.

const BASKETS = /^\/psd2\/paymentinitiation\/v1\/signing-baskets$/;
const BASKET = /^\/psd2\/paymentinitiation\/v1\/signing-baskets\/:basketId$/;

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
  {
    id: 'signing-baskets.read-keeps-two-payments',
    description: 'read basket answers at most the first two of its paymentIds (a third is dropped)',
    breaks: ['signing-baskets.read.response'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: BASKET }, (body: { paymentIds?: unknown }) => {
        if (Array.isArray(body.paymentIds)) body.paymentIds = body.paymentIds.slice(0, 2);
      }),
  },
];

export default faults;
