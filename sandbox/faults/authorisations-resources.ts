import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Fault } from './fault.js';
import { rewriteJson } from '../hooks.js';
import { fakeAuthorisation, params } from './shapes.js';

// The rules of the authorisation flows (endpoint section F) broken on a payment's, a cancellation's
// or a basket's authorisation while the consent's, which the suite also drives them on, keep them.
const PAYMENT_ONE = /\/:paymentService\/:paymentProduct\/:paymentId\/authorisations\/:authorisationId$/;
const CANCELLATION_ONE =
  /\/:paymentService\/:paymentProduct\/:paymentId\/cancellation-authorisations\/:authorisationId$/;
const CANCELLATIONS =
  '/psd2/paymentinitiation/v1/:paymentService/:paymentProduct/:paymentId/cancellation-authorisations';
const PAYMENT_AUTHORISATIONS = '/psd2/paymentinitiation/v1/:paymentService/:paymentProduct/:paymentId/authorisations';
const BASKETS = '/psd2/paymentinitiation/v1/signing-baskets';
const BASKET_ONE = /^\/psd2\/paymentinitiation\/v1\/signing-baskets\/:basketId\/authorisations\/:authorisationId$/;

type Body = {
  scaStatus?: string;
  psuMessage?: unknown;
  challengeData?: { data?: unknown; image?: unknown };
};

/** The method a PUT starts its authorisation with (undefined for update PSU data). */
const methodIn = (req: FastifyRequest) =>
  (req.body as { authenticationMethodId?: unknown } | undefined)?.authenticationMethodId;

/** A same-device start (mbid_same_device or mbid) answered with challengeData.data empty: no auto-start token. */
const noAutoStartToken = (id: string, what: string, route: RegExp): Fault => ({
  id,
  description: `starting a ${what} with mbid_same_device (or mbid) answers challengeData.data empty: no auto-start token (the consent's keeps it)`,
  breaks: ['authorisations.decoupled.autostart-token'],
  install: (app) =>
    rewriteJson(app, { method: 'PUT', route }, (b: Body, req) => {
      if ((methodIn(req) === 'mbid_same_device' || methodIn(req) === 'mbid') && b.challengeData)
        b.challengeData.data = [];
    }),
});

/** The ids the sandbox created since the fault was installed: an id outside them was never created. */
function createdIds(app: FastifyInstance, method: string, route: RegExp, key: string): Set<string> {
  const ids = new Set<string>();
  rewriteJson(app, { method, route }, (b: Record<string, unknown>) => {
    if (typeof b[key] === 'string') ids.add(b[key] as string);
  });
  return ids;
}

const faults: Fault[] = [
  noAutoStartToken('authorisations.payment-start-without-autostart-token', "payment's authorisation", PAYMENT_ONE),
  noAutoStartToken(
    'authorisations.cancellation-start-without-autostart-token',
    'cancellation authorisation',
    CANCELLATION_ONE,
  ),
  noAutoStartToken('authorisations.basket-start-without-autostart-token', "basket's authorisation", BASKET_ONE),
  {
    id: 'authorisations.qr-token-frozen-beyond-consents',
    description:
      "the animated QR token of a payment's, a cancellation's or a basket's authorisation never rotates (the consent's does)",
    breaks: ['authorisations.qr.token-rotates'],
    install: (app) => {
      const sca = app.sandbox.sca;
      const qrToken = sca.qrToken.bind(sca);
      sca.qrToken = (auth, at) => qrToken(auth, auth.resource.type === 'consent' ? at : auth.startedAt);
    },
  },
  {
    id: 'authorisations.payment-qr-image-without-psu-message',
    description:
      "starting a payment's authorisation with mbid_animated_qr_image answers the image but no psuMessage (the consent's carries it)",
    breaks: ['authorisations.qr.image'],
    install: (app) =>
      rewriteJson(app, { method: 'PUT', route: PAYMENT_ONE }, (b: Body, req) => {
        if (methodIn(req) === 'mbid_animated_qr_image') delete b.psuMessage;
      }),
  },
  {
    id: 'authorisations.basket-qr-image-not-png',
    description:
      "starting a basket's authorisation with mbid_animated_qr_image answers challengeData.image as a JPEG data URI, not a PNG",
    breaks: ['authorisations.qr.image'],
    install: (app) =>
      rewriteJson(app, { method: 'PUT', route: BASKET_ONE }, (b: Body, req) => {
        if (methodIn(req) === 'mbid_animated_qr_image' && typeof b.challengeData?.image === 'string')
          b.challengeData.image = b.challengeData.image.replace('data:image/png;base64,', 'data:image/jpeg;base64,');
      }),
  },
  {
    id: 'authorisations.payment-sca-status-moves-back',
    description:
      "a payment's authorisation, once a read has shown it started, reads received again on every later read while it is under way",
    breaks: ['authorisations.status.no-move-back'],
    install: (app) => {
      const shownStarted = new Set<string>();
      rewriteJson(app, { method: 'GET', route: PAYMENT_ONE }, (b: Body, req) => {
        const id = params(req).authorisationId ?? '';
        if (b.scaStatus !== 'started') return;
        if (shownStarted.has(id)) b.scaStatus = 'received';
        else shownStarted.add(id);
      });
    },
  },
  {
    id: 'authorisations.authorisation-on-unknown-basket',
    description: 'create authorisation on a basketId the bank never created answers 201 with an authorisation',
    breaks: ['authorisations.create.unknown-resource'],
    install: (app) => {
      const baskets = createdIds(app, 'POST', new RegExp(`^${BASKETS}$`), 'basketId');
      app.addHook('preValidation', async (req, reply) => {
        if (req.method !== 'POST' || req.routeOptions.url !== `${BASKETS}/:basketId/authorisations`) return;
        if (!baskets.has(params(req).basketId ?? '')) return fakeAuthorisation(req, reply);
      });
    },
  },
  {
    id: 'authorisations.cancellation-authorisation-on-unknown-payment',
    description: 'a cancellation authorisation on a paymentId the bank never created answers 201 with an authorisation',
    breaks: ['authorisations.create.unknown-resource'],
    install: (app) =>
      app.addHook('preValidation', async (req, reply) => {
        if (req.method !== 'POST' || req.routeOptions.url !== CANCELLATIONS) return;
        if (!app.sandbox.payments.payments.get(params(req).paymentId ?? '')) return fakeAuthorisation(req, reply);
      }),
  },
  {
    id: 'authorisations.unknown-payment-of-other-products',
    description:
      'create authorisation on an unknown payment answers 201 with an authorisation, under every service and product but the first claimed (payments/sepa-credit-transfers)',
    breaks: ['authorisations.create.unknown-resource', 'authorisations.unknown-resource.code'],
    install: (app) =>
      app.addHook('preValidation', async (req, reply) => {
        if (req.method !== 'POST' || req.routeOptions.url !== PAYMENT_AUTHORISATIONS) return;
        const p = params(req) as { paymentService?: string; paymentProduct?: string; paymentId?: string };
        if (p.paymentService === 'payments' && p.paymentProduct === 'sepa-credit-transfers') return;
        if (!app.sandbox.payments.payments.get(p.paymentId ?? '')) return fakeAuthorisation(req, reply);
      }),
  },
];

export default faults;
