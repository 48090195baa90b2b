import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Fault } from './fault.js';
import { fakeAuthorisation, params } from './shapes.js';

// Faults that only the generated phase's state walks over a consent, a signing basket and a payment's
// cancellation (tests/consents/properties/, tests/signing-baskets/properties/,
// tests/payments/properties/cancellation-walks.spec.ts) find: a status that moves back after one order
// of calls, a step the tables forbid taken after one order of calls. The hand-written checks alone
// pass each.

const AUTHORISATIONS = '/psd2/consent/v1/consents/:consentId/authorisations';
const BASKET = '/psd2/paymentinitiation/v1/signing-baskets/:basketId';
const CANCELLATIONS =
  '/psd2/paymentinitiation/v1/:paymentService/:paymentProduct/:paymentId/cancellation-authorisations';

/** The payment of a cancellation-authorisations POST, when its cancellation's SCA finalised (it is CANC by it). */
const cancelledByAuthorisation = (app: FastifyInstance, req: FastifyRequest) => {
  if (req.method !== 'POST' || req.routeOptions.url !== CANCELLATIONS) return undefined;
  const p = app.sandbox.payments.payments.get(params(req).paymentId ?? '');
  return p?.cancellation?.status === 'CANC' ? p : undefined;
};

const faults: Fault[] = [
  {
    id: 'consents.deleted-revived-by-refused-authorisation',
    description:
      'a refused create authorisation on a deleted consent (terminatedByTpp) sets its consentStatus back to received',
    breaks: ['consents.states.walk'],
    install: (app: FastifyInstance) =>
      app.addHook('onResponse', async (req, reply) => {
        if (req.method !== 'POST' || req.routeOptions.url !== AUTHORISATIONS) return;
        if (reply.statusCode < 400 || reply.statusCode >= 500) return;
        const c = app.sandbox.consents.get(params(req).consentId ?? '');
        if (c?.status === 'terminatedByTpp') c.status = 'received';
      }),
  },
  {
    id: 'signing-baskets.refused-delete-resets-status',
    description:
      'a refused delete or start authorisation on a basket whose authorisation has been applied sets its transactionStatus back to RCVD',
    breaks: ['signing-baskets.states.walk'],
    install: (app: FastifyInstance) =>
      app.addHook('onResponse', async (req, reply) => {
        const { method, routeOptions } = req;
        const refusable =
          (method === 'DELETE' && routeOptions.url === BASKET) ||
          (method === 'POST' && routeOptions.url === `${BASKET}/authorisations`);
        if (!refusable) return;
        if (reply.statusCode < 400 || reply.statusCode >= 500) return;
        const b = app.sandbox.payments.baskets.get(params(req).basketId ?? '');
        if (b && b.status !== 'RCVD') b.status = 'RCVD';
      }),
  },
  {
    id: 'payments.cancelled-revived-by-cancellation-authorisation',
    description:
      'a create cancellation authorisation (refused) on a payment cancelled by its finalised cancellation authorisation (CANC) sets its transactionStatus back to ACTC',
    breaks: ['payments.cancel.states.walk'],
    install: (app: FastifyInstance) =>
      app.addHook('onResponse', async (req) => {
        const p = cancelledByAuthorisation(app, req);
        if (p?.status === 'CANC') p.status = 'ACTC';
      }),
  },
  {
    id: 'payments.cancellation-authorised-again',
    description:
      'a create cancellation authorisation on a payment whose cancellation authorisation finalised (CANC) is accepted (201 with an authorisationId), as if the cancellation still awaited it',
    breaks: ['payments.cancel.states.walk'],
    install: (app: FastifyInstance) =>
      app.addHook('preValidation', async (req, reply) => {
        if (!cancelledByAuthorisation(app, req)) return;
        fakeAuthorisation(req, reply);
        return reply;
      }),
  },
];

export default faults;
