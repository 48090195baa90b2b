import { BgError } from '../errors.js';
import { type Fault } from './fault.js';
import { rewriteJson } from '../hooks.js';
import { params } from './shapes.js';

// A basket's authorisation and the operations around it (endpoint sections E and F), broken where
// the consent's and the payment's keep the same rule.
const BASKETS = '/psd2/paymentinitiation/v1/signing-baskets';
const BASKET_AUTHORISATIONS = /^\/psd2\/paymentinitiation\/v1\/signing-baskets\/:basketId\/authorisations$/;
const BASKET_ONE = /^\/psd2\/paymentinitiation\/v1\/signing-baskets\/:basketId\/authorisations\/:authorisationId$/;

type Body = Record<string, unknown>;

const faults: Fault[] = [
  {
    id: 'signing-baskets.sca-status-stays-received',
    description:
      "the SCA status of a basket's authorisation reads received while its SCA is under way (started), then finalised",
    breaks: ['signing-baskets.authorisation.sca-status'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: BASKET_ONE }, (b: Body) => {
        if (b.scaStatus === 'started') b.scaStatus = 'received';
      }),
  },
  {
    id: 'signing-baskets.authorisation-without-sca-methods',
    description: "a basket's start authorisation (POST) answers its authorisationId without scaMethods",
    breaks: ['signing-baskets.authorisation.sca-methods'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: BASKET_AUTHORISATIONS }, (b: Body) => void delete b.scaMethods),
  },
  {
    id: 'signing-baskets.unknown-basket-readable',
    description:
      'read, status and delete of a basketId the bank never created answer a 2xx with an empty basket (RCVD, no payments)',
    breaks: ['signing-baskets.unknown.refused'],
    install: (app) => {
      const made = new Set<string>();
      rewriteJson(app, { method: 'POST', route: new RegExp(`^${BASKETS}$`) }, (b: Body) => {
        if (typeof b.basketId === 'string') made.add(b.basketId);
      });
      app.addHook('preValidation', async (req, reply) => {
        const route = req.routeOptions.url ?? '';
        if (route !== `${BASKETS}/:basketId` && route !== `${BASKETS}/:basketId/status`) return;
        const id = params(req).basketId ?? '';
        if (made.has(id) || app.sandbox.payments.baskets.get(id)) return;
        if (req.method === 'DELETE') return reply.status(204).send();
        return reply
          .status(200)
          .type('application/json')
          .send(
            route.endsWith('/status') ? { transactionStatus: 'RCVD' } : { paymentIds: [], transactionStatus: 'RCVD' },
          );
      });
    },
  },
  {
    id: 'signing-baskets.delete-refused-once-authorisation-created',
    description:
      'deleting a basket is refused 409 as soon as an authorisation of it exists, though none has been applied',
    breaks: ['signing-baskets.delete.before-authorisation'],
    install: (app) =>
      app.addHook('preValidation', async (req) => {
        if (req.method !== 'DELETE' || req.routeOptions.url !== `${BASKETS}/:basketId`) return;
        const id = params(req).basketId ?? '';
        if (app.sandbox.sca.of('basket', id).length > 0)
          throw new BgError(409, 'STATUS_INVALID', 'the basket has an authorisation: it can no longer be deleted');
      }),
  },
];

export default faults;
