import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TERMINAL } from '../sca/engine.js';
import { beforeGuard, beforeHandler, rewriteJson, rewriteReply, serveWithScope, type Fault } from './fault.js';

// Faults of a basket's authorisation operations, of the redirect flow on payments and baskets,
// of the API scope of payments and baskets, and of TPP-Redirect-Preferred false.

const BASKETS = /^\/psd2\/paymentinitiation\/v1\/signing-baskets$/;
const BASKET = /^\/psd2\/paymentinitiation\/v1\/signing-baskets\/:basketId(\/status)?$/;
const BASKET_AUTHS = /^\/psd2\/paymentinitiation\/v1\/signing-baskets\/:basketId\/authorisations$/;
const BASKET_AUTH = /^\/psd2\/paymentinitiation\/v1\/signing-baskets\/:basketId\/authorisations\/:authorisationId$/;
const PAYMENT = /^\/psd2\/paymentinitiation\/v1\/:paymentService\/:paymentProduct\/:paymentId(\/status)?$/;
const PAYMENT_AUTH =
  /^\/psd2\/paymentinitiation\/v1\/:paymentService\/:paymentProduct\/:paymentId\/authorisations\/:authorisationId$/;
const CONSENT_AUTH = /^\/psd2\/consent\/v1\/consents\/:consentId\/authorisations\/:authorisationId$/;
const AUTHORIZE = /^\/connect\/authorize$/;
const TOKEN = /^\/connect\/token$/;

type Body = Record<string, any>;
const params = (req: FastifyRequest) =>
  ((req.method === 'GET' ? req.query : req.body) ?? {}) as Record<string, string | undefined>;
const methodOf = (req: FastifyRequest) =>
  (req.body as { authenticationMethodId?: unknown } | undefined)?.authenticationMethodId;
const notPreferred = (req: FastifyRequest) => req.headers['tpp-redirect-preferred'] === 'false';
/** The resource acr_values names (paymentId:<id>, basketId:<id>), either casing. */
const acrNames = (acr: string | undefined, resource: 'payment' | 'basket') =>
  new RegExp(`(^|\\s)${resource}Id:`, 'i').test(acr ?? '');

/** Rewrites the scaOAuth href of a payment's redirect start. */
const editPaymentScaOAuth = (app: FastifyInstance, edit: (u: URL) => void) =>
  rewriteJson(app, { method: 'PUT', route: PAYMENT_AUTH }, (b: Body) => {
    const href = b._links?.scaOAuth?.href;
    if (typeof href !== 'string') return;
    const u = new URL(href);
    edit(u);
    b._links.scaOAuth.href = u.toString();
  });

const faults: Fault[] = [
  // A basket's authorisation operations (endpoint section E).
  {
    id: 'signing-baskets.basket-start-psu-message-not-string',
    description: "a basket's start authorisation (POST) answers psuMessage as an object, not a string",
    breaks: ['signing-baskets.authorisation.start'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: BASKET_AUTHS, status: 201 }, (b: Body) => {
        if (typeof b.psuMessage === 'string') b.psuMessage = { text: b.psuMessage };
      }),
  },
  {
    id: 'signing-baskets.basket-start-without-psu-message',
    description: "a basket's start authorisation answers no psuMessage (listed, not required: a completeness warning)",
    breaks: ['signing-baskets.authorisation.start-complete'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: BASKET_AUTHS, status: 201 }, (b: Body) => void delete b.psuMessage),
  },
  {
    id: 'signing-baskets.basket-update-psu-data-status-not-string',
    description: "update PSU data on a basket's authorisation answers scatransactionStatus as an object",
    breaks: ['signing-baskets.authorisation.update-psu-data'],
    install: (app) =>
      rewriteJson(app, { method: 'PUT', route: BASKET_AUTH, status: 200 }, (b: Body) => {
        if (typeof b.scatransactionStatus === 'string') b.scatransactionStatus = { status: b.scatransactionStatus };
      }),
  },
  {
    id: 'signing-baskets.basket-update-psu-data-without-psu-message',
    description:
      "update PSU data on a basket's authorisation answers no psuMessage (listed, not required: a completeness warning)",
    breaks: ['signing-baskets.authorisation.update-psu-data-complete'],
    install: (app) =>
      rewriteJson(app, { method: 'PUT', route: BASKET_AUTH, status: 200 }, (b: Body) => {
        if ('scatransactionStatus' in b) delete b.psuMessage;
      }),
  },
  {
    id: 'signing-baskets.basket-created-with-sca-oauth',
    description:
      'a basket created with the redirect preferred answers a scaOAuth link, as if its authorisation had started',
    breaks: ['signing-baskets.create.explicit-start'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: BASKETS, status: 201 }, (b: Body, req) => {
        if (req.headers['tpp-redirect-preferred'] !== 'true' || !b._links) return;
        b._links.scaOAuth = { href: `${req.protocol}://${req.headers.host}/connect/authorize?scope=paymentinitiation` };
      }),
  },
  {
    id: 'signing-baskets.basket-deletable-after-partial-authorisation',
    description: 'a basket can be deleted until its last signer has authorised (after a first, partial authorisation)',
    breaks: ['signing-baskets.delete.after-partial-authorisation'],
    install: (app) => {
      const sca = app.sandbox.sca;
      app.sandbox.payments.basketDeletable = (b) =>
        sca.of('basket', b.basketId).filter((a) => a.status === 'finalised').length < b.signers;
    },
  },
  // The redirect flow on payments and baskets (endpoint sections F and G).
  {
    id: 'oauth.payment-sca-oauth-consent-scope',
    description:
      "a payment's scaOAuth link carries the consent scope accountinformation (the authorise page takes it as the payment's)",
    breaks: ['oauth.sca-oauth.payment-link'],
    install: (app) => {
      editPaymentScaOAuth(app, (u) =>
        u.searchParams.set(
          'scope',
          (u.searchParams.get('scope') ?? '').replace('paymentinitiation', 'accountinformation'),
        ),
      );
      beforeHandler(app, { route: AUTHORIZE }, (req) => {
        const p = params(req);
        if (acrNames(p.acr_values, 'payment') && p.scope)
          p.scope = p.scope.replace('accountinformation', 'paymentinitiation');
      });
    },
  },
  {
    id: 'oauth.payment-acr-values-renamed',
    description:
      "a payment's scaOAuth link carries no acr_values (its entries come as acr, which the authorise page reads)",
    breaks: ['oauth.sca-oauth.payment-link', 'payments.authorisations.redirect'],
    install: (app) => {
      editPaymentScaOAuth(app, (u) => {
        u.searchParams.set('acr', u.searchParams.get('acr_values') ?? '');
        u.searchParams.delete('acr_values');
      });
      beforeHandler(app, { route: AUTHORIZE }, (req) => {
        const p = params(req);
        if (!p.acr_values && p.acr) p.acr_values = p.acr;
      });
    },
  },
  {
    id: 'oauth.basket-acr-values-payment-words',
    description:
      "a basket's scaOAuth link names the basket in acr_values with the payment's words (paymentId:, PaymentAuthorisationId:)",
    breaks: ['oauth.sca-oauth.basket-link'],
    install: (app) =>
      rewriteJson(app, { method: 'PUT', route: BASKET_AUTH }, (b: Body) => {
        const href = b._links?.scaOAuth?.href;
        if (typeof href !== 'string') return;
        const u = new URL(href);
        const acr = u.searchParams.get('acr_values') ?? '';
        u.searchParams.set(
          'acr_values',
          acr.replace('basketId:', 'paymentId:').replace('BasketAuthorisationId:', 'PaymentAuthorisationId:'),
        );
        b._links.scaOAuth.href = u.toString();
      }),
  },
  {
    id: 'oauth.payment-and-basket-state-altered',
    description:
      'the redirect after approving a payment or a basket carries a state of the bank instead of the TPP state',
    breaks: ['oauth.redirect.payment-flow', 'oauth.redirect.basket-flow'],
    install: (app) =>
      rewriteReply(app, { method: 'POST', route: AUTHORIZE, status: 302 }, (req, reply) => {
        const acr = params(req).acr_values;
        const loc = reply.getHeader('location');
        if (typeof loc !== 'string' || !(acrNames(acr, 'payment') || acrNames(acr, 'basket'))) return;
        const u = new URL(loc);
        if (!u.searchParams.has('code')) return;
        u.searchParams.set('state', `${u.searchParams.get('state') ?? ''}x`);
        reply.header('location', u.toString());
      }),
  },
  {
    id: 'oauth.token-exchange-ignores-payment-ids',
    description:
      "a payment's code exchange takes the payment and its authorisation from the code, whatever X-PaymentId and X-PaymentAuthorisationId name",
    breaks: ['oauth.token.resource-mismatch'],
    install: (app) => {
      // The codes this sandbox issued for payments, with the authorisation each was issued for.
      const issued = new Map<string, string>();
      rewriteReply(app, { method: 'POST', route: AUTHORIZE, status: 302 }, (req, reply) => {
        const p = params(req);
        const loc = reply.getHeader('location');
        const auth = /AuthorisationId:(\S+)/i.exec(p.acr_values ?? '');
        const code = typeof loc === 'string' ? new URL(loc).searchParams.get('code') : null;
        if (code && auth && acrNames(p.acr_values, 'payment')) issued.set(code, auth[1]);
      });
      beforeHandler(app, { method: 'POST', route: TOKEN }, (req) => {
        const code = (req.body as Record<string, string | undefined> | undefined)?.code;
        const auth = code ? app.sandbox.sca.get(issued.get(code) ?? '') : undefined;
        if (!auth || req.headers['x-paymentid'] === undefined) return;
        req.headers['x-paymentid'] = auth.resource.id;
        req.headers['x-paymentauthorisationid'] = auth.authorisationId;
      });
    },
  },
  // The API scope of payments and baskets (Authentication 2).
  {
    id: 'oauth.payment-reads-any-scope',
    description: 'a payment read and a payment status read are served with an accountinformation token',
    breaks: ['oauth.scope.payments'],
    install: (app) =>
      beforeGuard(app, { method: 'GET', route: PAYMENT }, (req) => serveWithScope(app, req, 'paymentinitiation')),
  },
  {
    id: 'oauth.basket-reads-any-scope',
    description: 'a basket read and a basket status read are served with an accountinformation token',
    breaks: ['oauth.scope.baskets'],
    install: (app) =>
      beforeGuard(app, { method: 'GET', route: BASKET }, (req) => serveWithScope(app, req, 'paymentinitiation')),
  },
  // TPP-Redirect-Preferred false: no redirect.
  {
    id: 'authorisations.not-preferred-qr-image-redirects',
    description:
      'with TPP-Redirect-Preferred false, a consent authorisation started with mbid_animated_qr_image (one decoupled method only) answers aspsp-sca-approach REDIRECT',
    breaks: ['authorisations.start.decoupled', 'authorisations.redirect-preferred.false-consents'],
    install: (app) =>
      rewriteReply(app, { method: 'PUT', route: CONSENT_AUTH }, (req, reply) => {
        if (notPreferred(req) && methodOf(req) === 'mbid_animated_qr_image')
          reply.header('ASPSP-SCA-Approach', 'REDIRECT');
      }),
  },
  {
    id: 'authorisations.not-preferred-payment-mbid-redirects',
    description:
      'with TPP-Redirect-Preferred false, a payment authorisation started with mbid answers REDIRECT and a scaOAuth link',
    breaks: ['authorisations.redirect-preferred.false-payments'],
    install: (app) => {
      rewriteReply(app, { method: 'PUT', route: PAYMENT_AUTH }, (req, reply) => {
        if (notPreferred(req) && methodOf(req) === 'mbid') reply.header('ASPSP-SCA-Approach', 'REDIRECT');
      });
      rewriteJson(app, { method: 'PUT', route: PAYMENT_AUTH }, (b: Body, req) => {
        const auth = app.sandbox.sca.get((req.params as { authorisationId?: string }).authorisationId ?? '');
        if (!notPreferred(req) || methodOf(req) !== 'mbid' || !auth || TERMINAL.has(auth.status) || !b._links) return;
        b._links.scaOAuth = { href: `${req.protocol}://${req.headers.host}/connect/authorize?response_type=code` };
      });
    },
  },
];

export default faults;
