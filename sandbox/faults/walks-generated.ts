import type { FastifyInstance } from 'fastify';
import type { Fault } from './fault.js';
import { params } from './shapes.js';

// Faults that only the generated phase's state walks over a consent and a signing basket
// (tests/consents/generated/, tests/signing-baskets/generated/) find: a status that moves back after
// one order of calls. The hand-written checks alone pass each.

const AUTHORISATIONS = '/psd2/consent/v1/consents/:consentId/authorisations';
const BASKET = '/psd2/paymentinitiation/v1/signing-baskets/:basketId';

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
];

export default faults;
