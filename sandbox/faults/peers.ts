import { randomUUID } from 'node:crypto';
import { isIPv4 } from 'node:net';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isValidIBAN } from 'ibantools';
import { BgError, formatError } from '../errors.js';
import { SCA_METHODS } from '../sca/engine.js';
import { beforeGuard, beforeHandler, type Fault } from './fault.js';

// Faults of the scenarios peer suites judge: ownership, repeated operations, malformed inputs.

const CONSENT = '/psd2/consent/v1/consents';
const PAYMENT = '/psd2/paymentinitiation/v1/:paymentService/:paymentProduct';
const BASKET = '/psd2/paymentinitiation/v1/signing-baskets';
const ACCOUNTS = /^\/psd2\/accountinformation\/v1\/accounts/;
const AUTHORIZE = /^\/connect\/authorize$/;
const esc = (s: string) => s.replace(/[/]/g, '\\/');

type Params = Record<string, string | undefined>;
const params = (req: FastifyRequest) => (req.params ?? {}) as Params;
const today = () => new Date().toISOString().slice(0, 10);

/** Serves the call as if the resource's own TPP made it (the ownership check is gone). */
function asOwner(req: FastifyRequest, owner: string | undefined): void {
  if (owner && req.token && req.token.clientId !== owner) req.token = { ...req.token, clientId: owner };
}

/** Refuses another TPP's call with 400 FORMAT_ERROR instead of the ownership codes (still a refusal). */
function refuseAsFormatError(req: FastifyRequest, owner: string | undefined): void {
  if (owner && req.token && req.token.clientId !== owner)
    throw new BgError(400, 'FORMAT_ERROR', 'the request cannot be served');
}

/** Answers a create authorisation at once, as if it had been accepted. */
function fakeAuthorisation(req: FastifyRequest, reply: FastifyReply): void {
  const id = randomUUID();
  const self = `${req.url.split('?')[0]}/${id}`;
  void reply
    .status(201)
    .type('application/json')
    .send({
      authorisationId: id,
      scaStatus: 'received',
      scaMethods: SCA_METHODS,
      _links: { scaStatus: { href: self } },
    });
}

/** The authorise request's parameters (query of GET, form of POST). */
const authorizeParams = (req: FastifyRequest): Params =>
  ((req.method === 'GET' ? req.query : req.body) ?? {}) as Params;

/** The authorisation the acr_values of an authorise request names by its <ResourceType>AuthorisationId entry. */
function authorisationOf(app: FastifyInstance, p: Params) {
  const entry = (p.acr_values ?? '').split(/\s+/).find((e) => /^[A-Za-z]+AuthorisationId:/.test(e));
  return entry ? app.sandbox.sca.get(entry.slice(entry.indexOf(':') + 1)) : undefined;
}

/** A lenient authorise page: `fix` mends one parameter of the request before the page checks it. */
const lenientAuthorize = (app: FastifyInstance, fix: (p: Params) => void) =>
  beforeHandler(app, { route: AUTHORIZE }, (req) => fix(authorizeParams(req)));

const faults: Fault[] = [
  {
    id: 'peers.consent-other-tpp',
    description: "another TPP can read, delete and authorise a consent (the consent's owner is not checked)",
    breaks: ['consents.ownership.other-tpp', 'consents.ownership.other-tpp-code'],
    install: (app) =>
      beforeHandler(app, { route: new RegExp(`^${esc(CONSENT)}\\/:consentId(\\/status|\\/authorisations)?$`) }, (req) =>
        asOwner(req, app.sandbox.consents.get(params(req).consentId ?? '')?.clientId),
      ),
  },
  {
    id: 'peers.authorisation-other-tpp',
    description: "another TPP can read and start a consent's authorisation",
    breaks: ['authorisations.ownership.other-tpp'],
    install: (app) =>
      beforeHandler(
        app,
        { route: new RegExp(`^${esc(CONSENT)}\\/:consentId\\/authorisations\\/:authorisationId$`) },
        (req) => asOwner(req, app.sandbox.consents.get(params(req).consentId ?? '')?.clientId),
      ),
  },
  {
    id: 'peers.account-other-tpp',
    description: "account reads accept the Consent-ID of another TPP's consent",
    breaks: ['accounts.ownership.other-tpp', 'accounts.ownership.other-tpp-code'],
    install: (app) =>
      beforeHandler(app, { route: ACCOUNTS }, (req) => {
        const id = req.headers['consent-id'];
        asOwner(req, typeof id === 'string' ? app.sandbox.consents.get(id)?.clientId : undefined);
      }),
  },
  {
    id: 'peers.payment-other-tpp',
    description: "another TPP can read, cancel and authorise a payment (the payment's owner is not checked)",
    breaks: ['payments.ownership.other-tpp', 'payments.ownership.other-tpp-code'],
    install: (app) =>
      beforeHandler(app, { route: new RegExp(`^${esc(PAYMENT)}\\/:paymentId(\\/status|\\/authorisations)?$`) }, (req) =>
        asOwner(req, app.sandbox.payments.payments.get(params(req).paymentId ?? '')?.clientId),
      ),
  },
  {
    id: 'peers.consent-other-tpp-400',
    description: "another TPP's calls on a consent are refused with 400 FORMAT_ERROR, not CONSENT_UNKNOWN",
    breaks: ['consents.ownership.other-tpp-code'],
    install: (app) =>
      beforeHandler(app, { route: new RegExp(`^${esc(CONSENT)}\\/:consentId(\\/status)?$`) }, (req) =>
        refuseAsFormatError(req, app.sandbox.consents.get(params(req).consentId ?? '')?.clientId),
      ),
  },
  {
    id: 'peers.payment-other-tpp-400',
    description: "another TPP's calls on a payment are refused with 400 FORMAT_ERROR, not RESOURCE_UNKNOWN",
    breaks: ['payments.ownership.other-tpp-code'],
    install: (app) =>
      beforeHandler(app, { route: new RegExp(`^${esc(PAYMENT)}\\/:paymentId(\\/status)?$`) }, (req) =>
        refuseAsFormatError(req, app.sandbox.payments.payments.get(params(req).paymentId ?? '')?.clientId),
      ),
  },
  {
    id: 'peers.account-other-tpp-400',
    description: "account reads with another TPP's Consent-ID are refused with 400 FORMAT_ERROR, not CONSENT_UNKNOWN",
    breaks: ['accounts.ownership.other-tpp-code'],
    install: (app) =>
      beforeHandler(app, { route: ACCOUNTS }, (req) => {
        const id = req.headers['consent-id'];
        refuseAsFormatError(req, typeof id === 'string' ? app.sandbox.consents.get(id)?.clientId : undefined);
      }),
  },
  {
    id: 'peers.basket-other-tpp',
    description: "another TPP can read, delete and authorise a signing basket (the basket's owner is not checked)",
    breaks: ['signing-baskets.ownership.other-tpp'],
    install: (app) =>
      beforeHandler(app, { route: new RegExp(`^${esc(BASKET)}\\/:basketId(\\/status|\\/authorisations)?$`) }, (req) =>
        asOwner(req, app.sandbox.payments.baskets.get(params(req).basketId ?? '')?.clientId),
      ),
  },
  {
    id: 'peers.payment-any-service-product',
    description: 'a payment answers under any payment service and product of the path, not only its own',
    breaks: ['payments.path.service-product'],
    install: (app) =>
      beforeHandler(app, { route: new RegExp(`^${esc(PAYMENT)}\\/:paymentId`) }, (req) => {
        const p = app.sandbox.payments.payments.get(params(req).paymentId ?? '');
        if (!p) return;
        params(req).paymentService = p.service;
        params(req).paymentProduct = p.product;
      }),
  },
  {
    id: 'peers.consent-delete-twice',
    description: 'deleting a deleted consent again answers 204',
    breaks: ['consents.delete.twice'],
    install: (app) =>
      app.addHook('preValidation', async (req, reply) => {
        if (req.method !== 'DELETE' || req.routeOptions.url !== `${CONSENT}/:consentId`) return;
        const c = app.sandbox.consents.get(params(req).consentId ?? '');
        if (c?.status === 'terminatedByTpp' && c.clientId === req.token?.clientId) return reply.status(204).send();
      }),
  },
  {
    id: 'peers.valid-until-today-refused',
    description: 'create consent refuses a validUntil of today as if it were in the past',
    breaks: ['consents.valid-until.today'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: new RegExp(`^${esc(CONSENT)}$`) }, (req) => {
        if ((req.body as { validUntil?: unknown } | undefined)?.validUntil === today())
          throw formatError(`validUntil ${today()} is in the past`, 'validUntil');
      }),
  },
  {
    id: 'peers.consent-body-not-json',
    description: 'create consent takes an empty or non-JSON body for a default consent request',
    breaks: ['consents.create.body-json'],
    install: (app) =>
      app.addHook('preParsing', async (req, _reply, payload) => {
        if (req.method !== 'POST' || req.routeOptions.url !== CONSENT) return payload;
        const chunks: Buffer[] = [];
        for await (const chunk of payload) chunks.push(Buffer.from(chunk as Buffer));
        const text = Buffer.concat(chunks).toString('utf8');
        let json = true;
        try {
          json = typeof JSON.parse(text) === 'object';
        } catch {
          json = false;
        }
        const body = json
          ? text
          : JSON.stringify({
              access: { balances: [], transactions: [] },
              recurringIndicator: true,
              validUntil: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
              frequencyPerDay: 4,
              combinedServiceIndicator: false,
            });
        if (!json) {
          req.headers['content-type'] = 'application/json';
          req.headers['content-length'] = String(Buffer.byteLength(body));
          delete req.headers['transfer-encoding'];
        }
        return Readable.from([Buffer.from(body)]);
      }),
  },
  {
    id: 'peers.combined-service-5xx',
    description: 'create consent with combinedServiceIndicator true fails with a 500',
    breaks: ['consents.create.combined-service'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: new RegExp(`^${esc(CONSENT)}$`) }, (req) => {
        if ((req.body as { combinedServiceIndicator?: unknown } | undefined)?.combinedServiceIndicator === true)
          throw new Error('combined service not implemented');
      }),
  },
  {
    id: 'peers.authorisation-on-unknown-consent',
    description: 'create authorisation on an unknown consent answers 201 with an authorisation',
    breaks: ['authorisations.create.unknown-resource', 'authorisations.unknown-resource.code'],
    install: (app) =>
      app.addHook('preValidation', async (req, reply) => {
        if (req.method !== 'POST' || req.routeOptions.url !== `${CONSENT}/:consentId/authorisations`) return;
        if (!app.sandbox.consents.get(params(req).consentId ?? '')) return fakeAuthorisation(req, reply);
      }),
  },
  {
    id: 'peers.authorisations-list-unknown-consent',
    description: 'listing the authorisations of an unknown consent answers 200 with an empty list',
    breaks: ['authorisations.unknown-resource.code'],
    install: (app) =>
      app.addHook('preValidation', async (req, reply) => {
        if (req.method !== 'GET' || req.routeOptions.url !== `${CONSENT}/:consentId/authorisations`) return;
        if (!app.sandbox.consents.get(params(req).consentId ?? ''))
          return reply.status(200).type('application/json').send({ authorisationIds: [] });
      }),
  },
  {
    id: 'peers.authorise-final-consent',
    description: 'create authorisation on a deleted or rejected consent answers 201',
    breaks: ['authorisations.create.final-resource'],
    install: (app) =>
      app.addHook('preValidation', async (req, reply) => {
        if (req.method !== 'POST' || req.routeOptions.url !== `${CONSENT}/:consentId/authorisations`) return;
        const c = app.sandbox.consents.get(params(req).consentId ?? '');
        if (c && ['rejected', 'terminatedByTpp', 'revokedByPsu', 'expired'].includes(c.status))
          return fakeAuthorisation(req, reply);
      }),
  },
  {
    id: 'peers.authorise-final-payment',
    description: 'create authorisation on a rejected or already accepted payment answers 201',
    breaks: ['payments.authorisations.final-resource'],
    install: (app) =>
      app.addHook('preValidation', async (req, reply) => {
        if (req.method !== 'POST' || req.routeOptions.url !== `${PAYMENT}/:paymentId/authorisations`) return;
        const p = app.sandbox.payments.payments.get(params(req).paymentId ?? '');
        if (p && !app.sandbox.payments.awaitingSca(p)) return fakeAuthorisation(req, reply);
      }),
  },
  {
    id: 'peers.authorize-any-response-type',
    description: 'the authorise page takes any response_type, or none, for code',
    breaks: ['oauth.authorize.response-type'],
    install: (app) =>
      lenientAuthorize(app, (p) => {
        p.response_type = 'code';
      }),
  },
  {
    id: 'peers.authorize-any-client-id',
    description: "the authorise page takes any client_id, or none, for the resource's application",
    breaks: ['oauth.authorize.client-id'],
    install: (app) =>
      lenientAuthorize(app, (p) => {
        const auth = authorisationOf(app, p);
        if (auth) p.client_id = auth.resource.clientId;
      }),
  },
  {
    id: 'peers.authorize-any-scope',
    description: "the authorise page takes any scope, or none, for the resource's",
    breaks: ['oauth.authorize.scope'],
    install: (app) =>
      lenientAuthorize(app, (p) => {
        const auth = authorisationOf(app, p);
        if (auth)
          p.scope = `${auth.resource.type === 'consent' ? 'accountinformation' : 'paymentinitiation'} ${auth.resource.context}`;
      }),
  },
  {
    id: 'peers.authorize-without-state',
    description: 'the authorise page takes a request without state',
    breaks: ['oauth.authorize.state-required'],
    install: (app) =>
      lenientAuthorize(app, (p) => {
        if (!p.state) p.state = 'bank-state';
      }),
  },
  {
    id: 'peers.authorize-any-resource-id',
    description:
      'the authorise page takes acr_values with an unknown or no resource id (the authorisation id is enough)',
    breaks: ['oauth.authorize.acr-values'],
    install: (app) =>
      lenientAuthorize(app, (p) => {
        const auth = authorisationOf(app, p);
        if (!auth) return;
        const entries = (p.acr_values ?? '').split(/\s+/).filter(Boolean);
        const idp = entries.find((e) => e.startsWith('idp:')) ?? 'idp:';
        const authEntry = entries.find((e) => /AuthorisationId:/.test(e))!;
        const name = authEntry.slice(0, authEntry.indexOf('AuthorisationId:'));
        const resource = `${name.charAt(0).toLowerCase()}${name.slice(1)}Id:${auth.resource.id}`;
        p.acr_values = [idp, resource, authEntry].join(' ');
      }),
  },
  {
    id: 'peers.account-reads-any-psu-ip',
    description: 'account reads take a PSU-IP-Address that is not IPv4',
    breaks: ['accounts.read.psu-ip-address-format'],
    install: (app) =>
      beforeHandler(app, { route: ACCOUNTS }, (req) => {
        const ip = req.headers['psu-ip-address'];
        if (typeof ip === 'string' && !isIPv4(ip)) req.headers['psu-ip-address'] = '192.0.2.10';
      }),
  },
  {
    id: 'peers.transactions-any-date-from',
    description: 'the transaction list reads a malformed dateFrom as 2000-01-01',
    breaks: ['accounts.transactions.date-from-format'],
    install: (app) =>
      beforeHandler(app, { route: /\/transactions$/ }, (req) => {
        const q = req.query as Params;
        if (q.dateFrom !== undefined && !/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/.test(q.dateFrom))
          q.dateFrom = '2000-01-01';
      }),
  },
  {
    id: 'peers.payment-any-iban',
    description: 'initiate payment replaces an empty or invalid debtor or creditor IBAN with a valid one',
    breaks: ['payments.initiate.iban'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: new RegExp(`^${esc(PAYMENT)}$`) }, (req) => {
        const fix = (o: unknown): void => {
          if (Array.isArray(o)) o.forEach(fix);
          else if (o && typeof o === 'object') {
            const rec = o as Record<string, unknown>;
            for (const [k, v] of Object.entries(rec)) {
              if (k === 'iban' && typeof v === 'string' && !isValidIBAN(v)) rec[k] = 'SE4550000000058398257466';
              else fix(v);
            }
          }
        };
        fix(req.body);
      }),
  },
  {
    id: 'peers.payment-empty-creditor-name',
    description: 'initiate payment fills an empty creditorName in',
    breaks: ['payments.initiate.creditor-name-empty'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: new RegExp(`^${esc(PAYMENT)}$`) }, (req) => {
        const body = req.body as { creditorName?: unknown; payments?: { creditorName?: unknown }[] } | undefined;
        for (const o of [body, ...(Array.isArray(body?.payments) ? body.payments : [])])
          if (o && o.creditorName === '') o.creditorName = 'Creditor';
      }),
  },
  {
    id: 'peers.payment-any-content-type',
    description: 'initiate payment reads any body as JSON, whatever its Content-Type (or none)',
    breaks: ['payments.initiate.content-type'],
    install: (app) =>
      beforeGuard(app, { method: 'POST', route: new RegExp(`^${esc(PAYMENT)}$`) }, (req) => {
        if (!/^application\/json/i.test(req.headers['content-type'] ?? ''))
          req.headers['content-type'] = 'application/json';
      }),
  },
  {
    id: 'peers.payment-malformed-redirect-uri',
    description: 'initiate payment ignores a TPP-Redirect-URI that is not a URI',
    breaks: ['payments.initiate.redirect-uri-format'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: new RegExp(`^${esc(PAYMENT)}$`) }, (req) => {
        const uri = req.headers['tpp-redirect-uri'];
        if (typeof uri === 'string' && !URL.canParse(uri)) delete req.headers['tpp-redirect-uri'];
      }),
  },
];

export default faults;
