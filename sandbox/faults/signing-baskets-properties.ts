import type { FastifyInstance } from 'fastify';
import type { Fault } from './fault.js';
import { beforeHandler, rewriteJson } from '../hooks.js';
import { params } from './shapes.js';

// A fault that sits between the hand-written checks' points and that only the generated phase
// (tests/signing-baskets/properties/) finds: the hand-written check names one unknown payment alone,
// and reads back a basket of two payments; a status that moves back after one order of calls
// (basket-walks.spec.ts).

const BASKETS = /^\/psd2\/paymentinitiation\/v1\/signing-baskets$/;
const BASKET = /^\/psd2\/paymentinitiation\/v1\/signing-baskets\/:basketId$/;

const BASKET_ROUTE = '/psd2/paymentinitiation/v1/signing-baskets/:basketId';

const faults: Fault[] = [
  {
    id: 'signing-baskets.unknown-payment-after-first-accepted',
    caughtBy: 'properties',
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
    caughtBy: 'properties',
    description: 'read basket answers at most the first two of its paymentIds (a third is dropped)',
    breaks: ['signing-baskets.read.response'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: BASKET }, (body: { paymentIds?: unknown }) => {
        if (Array.isArray(body.paymentIds)) body.paymentIds = body.paymentIds.slice(0, 2);
      }),
  },
  {
    id: 'signing-baskets.refused-delete-resets-status',
    caughtBy: 'properties',
    description:
      'a refused delete or start authorisation on a basket whose authorisation has been applied sets its transactionStatus back to RCVD',
    breaks: ['signing-baskets.states.walk'],
    install: (app: FastifyInstance) =>
      app.addHook('onResponse', async (req, reply) => {
        const { method, routeOptions } = req;
        const refusable =
          (method === 'DELETE' && routeOptions.url === BASKET_ROUTE) ||
          (method === 'POST' && routeOptions.url === `${BASKET_ROUTE}/authorisations`);
        if (!refusable) return;
        if (reply.statusCode < 400 || reply.statusCode >= 500) return;
        const b = app.sandbox.payments.baskets.get(params(req).basketId ?? '');
        if (b && b.status !== 'RCVD') b.status = 'RCVD';
      }),
  },
];

export default faults;
