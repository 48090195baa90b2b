import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Fault } from './fault.js';
import { rewriteJson } from '../hooks.js';

// Faults of the links a payment's answers carry: links that lead somewhere, but not to this payment.

const INITIATE = /^\/psd2\/paymentinitiation\/v1\/:paymentService\/:paymentProduct$/;
const PAYMENT = /^\/psd2\/paymentinitiation\/v1\/:paymentService\/:paymentProduct\/:paymentId$/;
/** Marks the fault's own second initiation, which it leaves as it is. */
const DECOY = 'x-sandbox-fault-decoy';

type Links = Record<string, { href: string }>;

/**
 * Every initiation makes a second payment of the same product for the same application (the
 * decoy, initiated again through the app with the same body), and the first one's status link
 * points at the decoy's status: a link that reads with a 2xx, of another payment.
 */
function statusOfAnother(app: FastifyInstance): void {
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.method !== 'POST' || !INITIATE.test(req.routeOptions.url ?? '') || reply.statusCode !== 201) return payload;
    if (req.headers[DECOY] || typeof payload !== 'string') return payload;
    const headers = { ...req.headers, [DECOY]: '1', 'x-request-id': randomUUID() };
    delete headers['content-length'];
    delete headers.host;
    const decoy = await app.inject({ method: 'POST', url: req.url, headers, payload: JSON.stringify(req.body) });
    const other = (decoy.json() as { paymentId?: string }).paymentId;
    const body = JSON.parse(payload) as { paymentId?: string; _links?: Links };
    const status = body._links?.status;
    if (!other || !body.paymentId || !status) return payload;
    status.href = status.href.replace(`/${body.paymentId}/`, `/${other}/`);
    return JSON.stringify(body);
  });
}

const faults: Fault[] = [
  {
    id: 'payments.initiate-status-link-other-payment',
    description:
      "an initiated payment's status link points at the status of another payment of the same product (one the sandbox initiates beside it): it reads with a 2xx, but not this payment's status",
    breaks: ['payments.initiate.response'],
    install: statusOfAnother,
  },
  {
    id: 'payments.cancel-start-authorisation-of-initiation',
    description:
      "a cancellation that needs authorisation links startAuthorisation to the payment's initiation authorisations (…/authorisations), not its cancellation authorisations",
    breaks: ['payments.cancel.start-authorisation-link'],
    install: (app) =>
      rewriteJson(app, { method: 'DELETE', route: PAYMENT, status: 202 }, (b: { _links?: Links }) => {
        const start = b._links?.startAuthorisation;
        if (start) start.href = start.href.replace(/\/cancellation-authorisations$/, '/authorisations');
      }),
  },
];

export default faults;
