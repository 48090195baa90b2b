import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Fault } from './fault.js';
import { beforeGuard, beforeHandler, rewriteJson, rewriteReply, serveWithScope } from '../hooks.js';

// Faults of the redirect flow on payments and baskets and of the API scope of payments and
// baskets (oauth area).

const BASKET = /^\/psd2\/paymentinitiation\/v1\/signing-baskets\/:basketId(\/status)?$/;
const BASKET_AUTH = /^\/psd2\/paymentinitiation\/v1\/signing-baskets\/:basketId\/authorisations\/:authorisationId$/;
const PAYMENT = /^\/psd2\/paymentinitiation\/v1\/:paymentService\/:paymentProduct\/:paymentId(\/status)?$/;
const PAYMENT_AUTH =
  /^\/psd2\/paymentinitiation\/v1\/:paymentService\/:paymentProduct\/:paymentId\/authorisations\/:authorisationId$/;
const AUTHORIZE = /^\/connect\/authorize$/;
const TOKEN = /^\/connect\/token$/;

type Body = Record<string, any>;
const params = (req: FastifyRequest) =>
  ((req.method === 'GET' ? req.query : req.body) ?? {}) as Record<string, string | undefined>;
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
    id: 'oauth.payment-sca-oauth-other-path',
    description:
      "a payment's scaOAuth link points at /connect/authorise, a path that is not the bank's authorise endpoint (its query as it should be): the PSU following it finds no page",
    breaks: ['oauth.sca-oauth.payment-link', 'payments.authorisations.redirect', 'oauth.redirect.payment-flow'],
    install: (app) =>
      editPaymentScaOAuth(app, (u) => {
        u.pathname = u.pathname.replace(/authorize$/, 'authorise');
      }),
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
];

export default faults;
