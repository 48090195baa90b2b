import { randomUUID } from 'node:crypto';
import type { Basket } from '../payments/store.js';
import { isIpv4 } from '../../spec/header-forms.js';
import { type Fault } from './fault.js';
import { beforeGuard, beforeHandler, rewriteJson, keepDeletedBasketAsCancelled } from '../hooks.js';
import { asOwner, deadStatusLink, esc, params } from './shapes.js';

const BASKETS = /^\/psd2\/paymentinitiation\/v1\/signing-baskets$/;
const BASKETS_PATH = '/psd2/paymentinitiation/v1/signing-baskets';
const BASKET = /^\/psd2\/paymentinitiation\/v1\/signing-baskets\/:basketId$/;
const STATUS = /^\/psd2\/paymentinitiation\/v1\/signing-baskets\/:basketId\/status$/;
const BASKET_AUTHORISATIONS = /^\/psd2\/paymentinitiation\/v1\/signing-baskets\/:basketId\/authorisations$/;

const BASKET_AUTH = /^\/psd2\/paymentinitiation\/v1\/signing-baskets\/:basketId\/authorisations\/:authorisationId$/;
type Body = Record<string, unknown>;
type AnyBody = Record<string, any>;

const faults: Fault[] = [
  {
    id: 'signing-baskets.created-without-start-authorisation',
    description:
      'a new basket answers without the startAuthorisation link (listed, not required: a completeness warning)',
    breaks: ['signing-baskets.create.complete'],
    install: (app) =>
      rewriteJson(
        app,
        { method: 'POST', route: BASKETS, status: 201 },
        (b: { _links?: Body }) => void delete b._links?.startAuthorisation,
      ),
  },
  {
    id: 'signing-baskets.start-authorisation-link-not-a-link',
    description: 'a new basket answers _links.startAuthorisation as a bare string, not a link object with href',
    breaks: ['signing-baskets.create.response'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: BASKETS, status: 201 }, (b: { _links?: Body }) => {
        const link = b._links?.startAuthorisation as { href?: string } | undefined;
        if (link) b._links!.startAuthorisation = link.href;
      }),
  },
  {
    id: 'signing-baskets.read-without-status',
    description: 'read basket answers no transactionStatus (listed, not required: a completeness warning)',
    breaks: ['signing-baskets.read.complete'],
    install: (app) => rewriteJson(app, { method: 'GET', route: BASKET }, (b: Body) => void delete b.transactionStatus),
  },
  {
    id: 'signing-baskets.empty-accepted',
    description: 'a basket with no payments is created',
    breaks: ['signing-baskets.create.empty', 'signing-baskets.create.empty-code'],
    install: (app) =>
      app.addHook('preValidation', async (req, reply) => {
        if (req.method !== 'POST' || !BASKETS.test(req.routeOptions.url ?? '')) return;
        const ids = (req.body as { paymentIds?: unknown } | undefined)?.paymentIds;
        if (Array.isArray(ids) && ids.length > 0) return;
        const b: Basket = {
          basketId: randomUUID(),
          clientId: req.token!.clientId,
          psuId: 'sandbox-psu',
          context: 'private',
          paymentIds: [],
          status: 'RCVD',
          signers: 1,
          createdAt: Date.now(),
        };
        app.sandbox.payments.baskets.set(b.basketId, b);
        const self = `/v1/signing-baskets/${b.basketId}`;
        await reply.status(201).send({
          basketId: b.basketId,
          transactionStatus: 'RCVD',
          _links: {
            self: { href: self },
            status: { href: `${self}/status` },
            startAuthorisation: { href: `${self}/authorisations` },
          },
        });
      }),
  },
  {
    id: 'signing-baskets.psu-ip-address-not-required',
    description: 'create basket without (or with a malformed) PSU-IP-Address is served as if it had one',
    breaks: [
      'signing-baskets.create.psu-ip-address',
      'signing-baskets.create.psu-ip-address-format',
      'signing-baskets.create.psu-ip-address-code',
    ],
    install: (app) =>
      beforeGuard(app, { method: 'POST', route: BASKETS }, (req) => {
        const ip = req.headers['psu-ip-address'];
        if (!isIpv4(ip)) req.headers['psu-ip-address'] = '192.0.2.1';
      }),
  },
  {
    id: 'signing-baskets.read-drops-a-payment',
    description: 'read basket leaves out its last payment',
    breaks: ['signing-baskets.read.response'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: BASKET }, (b: { paymentIds?: string[] }) => void b.paymentIds?.pop()),
  },
  {
    id: 'signing-baskets.status-renamed',
    description: 'basket status names its field status instead of transactionStatus',
    breaks: ['signing-baskets.status.response'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: STATUS }, (b: Body) => {
        b.status = b.transactionStatus;
        delete b.transactionStatus;
      }),
  },
  {
    id: 'signing-baskets.delete-keeps-basket',
    description: 'delete basket answers 204 but the basket stays',
    // The kept basket can still be authorised: its start is accepted where a deleted one's is refused.
    breaks: [
      'signing-baskets.delete.before-authorisation',
      'signing-baskets.delete.cancelled-status',
      'signing-baskets.authorisation.final-resource',
    ],
    // Under the reading that takes either (the reference sandbox pins gone), so the kept basket's status is judged too.
    claims: { signingBaskets: { afterDelete: 'either' } },
    install: (app) => {
      const baskets = app.sandbox.payments.baskets;
      const evict = baskets.delete.bind(baskets);
      // Only the DELETE route's removal is skipped: eviction of the oldest still works through set().
      app.addHook('preHandler', async (req) => {
        if (req.method === 'DELETE' && BASKET.test(req.routeOptions.url ?? '')) baskets.delete = () => true;
      });
      app.addHook('onResponse', async () => {
        baskets.delete = evict;
      });
    },
  },
  {
    id: 'signing-baskets.deleted-readable-under-gone',
    description:
      'a deleted signing basket stays readable with transactionStatus CANC under a profile pinning signingBaskets.afterDelete gone',
    breaks: ['signing-baskets.delete.before-authorisation'],
    claims: { signingBaskets: { afterDelete: 'gone' } },
    install: (app) => keepDeletedBasketAsCancelled(app),
  },
  {
    id: 'signing-baskets.deletable-after-authorisation',
    description: 'a basket can be deleted after its authorisation',
    breaks: [
      'signing-baskets.delete.after-authorisation',
      'signing-baskets.delete.after-authorisation-code',
      'signing-baskets.delete.after-partial-authorisation',
    ],
    install: (app) => {
      app.sandbox.payments.basketDeletable = () => true;
    },
  },
  {
    id: 'signing-baskets.delete-cancels-payments',
    description: 'deleting a basket cancels the payments in it',
    breaks: ['signing-baskets.delete.payments-untouched'],
    install: (app) =>
      beforeHandler(app, { method: 'DELETE', route: BASKET }, (req) => {
        const b = app.sandbox.payments.baskets.get((req.params as { basketId: string }).basketId);
        for (const id of b?.paymentIds ?? []) {
          const p = app.sandbox.payments.payments.get(id);
          if (p) p.status = 'CANC';
        }
      }),
  },
  {
    id: 'signing-baskets.sca-leaves-payments',
    description: "the basket's SCA authorises the basket but none of its payments",
    breaks: ['signing-baskets.sca.moves-payments'],
    install: (app) => {
      const svc = app.sandbox.payments;
      svc.basketScaEnded = (id, outcome) => {
        const b = svc.baskets.get(id);
        if (b && b.status === 'RCVD') b.status = outcome === 'failed' ? 'RJCT' : 'ACTC';
      };
    },
  },

  {
    id: 'signing-baskets.authorisation-start-on-final-basket',
    description:
      'a basket whose SCA finalised or failed still accepts start authorisation (a new authorisation is created); a deleted basket refuses it',
    breaks: ['signing-baskets.authorisation.final-resource'],
    install: (app) => {
      const held = new WeakMap<object, { basket: Basket; status: Basket['status'] }>();
      beforeHandler(app, { method: 'POST', route: BASKET_AUTHORISATIONS }, (req) => {
        const b = app.sandbox.payments.baskets.get((req.params as { basketId: string }).basketId);
        if (!b || b.status === 'RCVD' || b.status === 'PATC') return;
        held.set(req, { basket: b, status: b.status });
        b.status = 'PATC';
      });
      app.addHook('onSend', async (req, _reply, payload) => {
        const h = held.get(req);
        if (h) h.basket.status = h.status;
        return payload;
      });
    },
  },
  {
    id: 'signing-baskets.basket-other-tpp',
    description: "another TPP can read, delete and authorise a signing basket (the basket's owner is not checked)",
    breaks: ['signing-baskets.ownership.other-tpp'],
    install: (app) =>
      beforeHandler(
        app,
        { route: new RegExp(`^${esc(BASKETS_PATH)}\\/:basketId(\\/status|\\/authorisations)?$`) },
        (req) => asOwner(req, app.sandbox.payments.baskets.get(params(req).basketId ?? '')?.clientId),
      ),
  },
  deadStatusLink(
    'signing-baskets.created-status-link-dead',
    'create signing basket',
    BASKETS,
    'signing-baskets.create.response',
  ),
  {
    id: 'signing-baskets.basket-start-psu-message-not-string',
    description: "a basket's start authorisation (POST) answers psuMessage as an object, not a string",
    breaks: ['signing-baskets.authorisation.start'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: BASKET_AUTHORISATIONS, status: 201 }, (b: AnyBody) => {
        if (typeof b.psuMessage === 'string') b.psuMessage = { text: b.psuMessage };
      }),
  },
  {
    id: 'signing-baskets.create-status-link-to-self',
    description:
      "create signing basket answers a status link to the basket itself (…/signing-baskets/{id}, no /status): it reads with a 2xx, but it is not the basket's status",
    breaks: ['signing-baskets.create.response'],
    install: (app) =>
      rewriteJson(
        app,
        { method: 'POST', route: BASKETS, status: 201 },
        (b: { _links?: Record<string, { href: string }> }) => {
          const status = b._links?.status;
          if (status) status.href = status.href.replace(/\/status$/, '');
        },
      ),
  },
  {
    id: 'signing-baskets.basket-start-status-started',
    description:
      "a basket's start authorisation (POST) answers its new authorisation's scaStatus started, not received",
    breaks: ['signing-baskets.authorisation.start-received'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: BASKET_AUTHORISATIONS, status: 201 }, (b: AnyBody) => {
        if (b.scaStatus === 'received') b.scaStatus = 'started';
      }),
  },
  {
    id: 'signing-baskets.basket-start-without-psu-message',
    description: "a basket's start authorisation answers no psuMessage (listed, not required: a completeness warning)",
    breaks: ['signing-baskets.authorisation.start-complete'],
    install: (app) =>
      rewriteJson(
        app,
        { method: 'POST', route: BASKET_AUTHORISATIONS, status: 201 },
        (b: AnyBody) => void delete b.psuMessage,
      ),
  },
  {
    id: 'signing-baskets.basket-update-psu-data-status-not-string',
    description: "update PSU data on a basket's authorisation answers scatransactionStatus as an object",
    breaks: ['signing-baskets.authorisation.update-psu-data'],
    install: (app) =>
      rewriteJson(app, { method: 'PUT', route: BASKET_AUTH, status: 200 }, (b: AnyBody) => {
        if (typeof b.scatransactionStatus === 'string') b.scatransactionStatus = { status: b.scatransactionStatus };
      }),
  },
  {
    id: 'signing-baskets.basket-update-psu-data-without-psu-message',
    description:
      "update PSU data on a basket's authorisation answers no psuMessage (listed, not required: a completeness warning)",
    breaks: ['signing-baskets.authorisation.update-psu-data-complete'],
    install: (app) =>
      rewriteJson(app, { method: 'PUT', route: BASKET_AUTH, status: 200 }, (b: AnyBody) => {
        if ('scatransactionStatus' in b) delete b.psuMessage;
      }),
  },
  {
    id: 'signing-baskets.basket-created-with-sca-oauth',
    description:
      'a basket created with the redirect preferred answers a scaOAuth link, as if its authorisation had started',
    breaks: ['signing-baskets.create.explicit-start'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: BASKETS, status: 201 }, (b: AnyBody, req) => {
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
];

export default faults;
