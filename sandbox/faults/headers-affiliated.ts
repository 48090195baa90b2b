import type { FastifyInstance } from 'fastify';
import { formatError } from '../errors.js';
import type { Fault } from './fault.js';

// Faults of X-AffiliatedASPSP-ID (Common request headers: on create consent and initiate payment).

const CREATE_CONSENT = /^\/psd2\/consent\/v1\/consents$/;
const INITIATE = /^\/psd2\/paymentinitiation\/v1\/:paymentService\/:paymentProduct$/;

/** POSTs of `route` that carry X-AffiliatedASPSP-ID are refused 400 FORMAT_ERROR, whatever the id. */
function refuseAffiliated(app: FastifyInstance, route: RegExp): void {
  app.addHook('preHandler', async (req) => {
    if (req.method !== 'POST' || !route.test(req.routeOptions.url ?? '')) return;
    if (req.headers['x-affiliatedaspsp-id'] !== undefined)
      throw formatError('X-AffiliatedASPSP-ID is not taken here', 'X-AffiliatedASPSP-ID');
  });
}

const faults: Fault[] = [
  {
    id: 'headers.affiliated-aspsp-refused-on-consent',
    description:
      'create consent refuses X-AffiliatedASPSP-ID (400 FORMAT_ERROR), even naming a bank the directory lists as affiliated to X-BicFi',
    breaks: ['headers.affiliated-aspsp-id.accepted'],
    install: (app) => refuseAffiliated(app, CREATE_CONSENT),
  },
  {
    id: 'headers.affiliated-aspsp-refused-on-payment',
    description:
      'initiate payment refuses X-AffiliatedASPSP-ID (400 FORMAT_ERROR), even naming a bank the directory lists as affiliated to X-BicFi',
    breaks: ['headers.affiliated-aspsp-id.accepted'],
    install: (app) => refuseAffiliated(app, INITIATE),
  },
];

export default faults;
