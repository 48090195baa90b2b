import type { FastifyInstance } from 'fastify';
import type { Fault } from './fault.js';
import { params } from './shapes.js';

// A fault that only the generated phase's consent walks (tests/consents/generated/) find: a status
// that moves back after one order of calls. The hand-written checks alone pass it.

const AUTHORISATIONS = '/psd2/consent/v1/consents/:consentId/authorisations';

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
];

export default faults;
