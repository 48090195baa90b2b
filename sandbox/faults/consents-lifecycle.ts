import { today } from '../../spec/iso8601.js';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Consent } from '../consents/store.js';
import { formatError } from '../errors.js';
import { type Fault } from './fault.js';
import { beforeHandler, rewriteJson } from '../hooks.js';
import { deadStatusLink, wrapConsentEnd } from './shapes.js';

/*
 * Faults of a consent's life (consents area): its status, what reading it answers, what creating
 * and authorising it do to the PSU's former consents. Each breaks its rule only where a weaker
 * check would not look (after the SCA, on a one-off consent, on the second access entry, at
 * creation instead of authorisation, for another PSU).
 */

const CREATE = /^\/psd2\/consent\/v1\/consents$/;
const ONE = /^\/psd2\/consent\/v1\/consents\/:consentId$/;
const STATUS = /^\/psd2\/consent\/v1\/consents\/:consentId\/status$/;
const REQUIRED = ['access', 'recurringIndicator', 'validUntil', 'frequencyPerDay', 'combinedServiceIndicator'];

type Body = Record<string, any>;
const bodyOf = (req: { body: unknown }) => (req.body && typeof req.body === 'object' ? (req.body as Body) : undefined);

/** The valid recurring account-information consents of the TPP, but `except`; of `psuId` only when given. */
function validRecurring(app: FastifyInstance, clientId: string, except?: Consent, psuId?: string): Consent[] {
  return [...app.sandbox.consents.values()].filter(
    (c) =>
      c !== except &&
      c.clientId === clientId &&
      c.type === 'ais' &&
      c.recurringIndicator &&
      c.status === 'valid' &&
      (psuId === undefined || c.psuId === psuId),
  );
}

const faults: Fault[] = [
  {
    id: 'consents.read-account-link-to-other-accounts',
    description:
      "the read consent's _links.account leads to an account id the consent does not hold (its read is refused)",
    breaks: ['consents.read.account-link'],
    install: (app) =>
      rewriteJson(
        app,
        { method: 'GET', route: /^\/psd2\/consent\/v1\/consents\/:consentId$/ },
        (b: { _links?: { account?: { href?: string } } }) => {
          if (b._links?.account) b._links.account.href = '/v1/accounts/not-under-this-consent';
        },
      ),
  },
  {
    id: 'consents.create-status-link-to-self',
    description:
      "create consent answers a status link to the consent itself (…/consents/{id}, no /status): it reads with a 2xx, but it is not the consent's status",
    breaks: ['consents.create.response'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: CREATE }, (b: { _links?: Record<string, { href: string }> }) => {
        const status = b._links?.status;
        if (status) status.href = status.href.replace(/\/status$/, '');
      }),
  },
  {
    id: 'consents.delete-body-without-links',
    description:
      'delete consent answers 200 with a body of its own ({ consentStatus: terminatedByTpp }, no _links), not the message-and-links structure',
    breaks: ['consents.delete.message-and-links'],
    // Judged under the default reading (either) as under message-and-links, the reference profile's.
    claims: { consents: { deleteAnswer: 'either' } },
    install: (app) =>
      app.addHook('preHandler', async (req, reply) => {
        if (req.method !== 'DELETE' || !ONE.test(req.routeOptions.url ?? '')) return;
        const c = app.sandbox.consents.get((req.params as { consentId: string }).consentId);
        if (!c || c.clientId !== req.token?.clientId) return;
        c.status = 'terminatedByTpp';
        await reply
          .status(200)
          .header('Content-Type', 'application/json; charset=utf-8')
          .send(JSON.stringify({ consentStatus: 'terminatedByTpp' }));
      }),
  },
  {
    id: 'consents.status-stuck-at-received',
    description: 'consent status answers received whatever the consent became (after its SCA, after its deletion)',
    breaks: ['consents.status.follows'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: STATUS }, (b: Body) => {
        b.consentStatus = 'received';
      }),
  },
  {
    id: 'consents.read-recurring-always-true',
    description: 'read consent answers recurringIndicator true for a one-off consent too',
    breaks: ['consents.read.fields'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: ONE }, (b: Body) => {
        if (b.recurringIndicator !== undefined) b.recurringIndicator = true;
      }),
  },
  {
    id: 'consents.read-access-first-entry-only',
    description: 'read consent answers only the first account reference of each access list',
    breaks: ['consents.read.fields'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: ONE }, (b: Body) => {
        for (const k of ['accounts', 'balances', 'transactions'])
          if (Array.isArray(b.access?.[k])) b.access[k] = b.access[k].slice(0, 1);
      }),
  },
  {
    id: 'consents.refused-create-still-creates',
    description:
      'a create consent without a required field is refused 400, but the consent is created (the field defaulted) and named in Location',
    breaks: ['consents.create.required-fields'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: CREATE }, (req, reply) => {
        const b = bodyOf(req);
        const missing = b && REQUIRED.find((k) => b[k] === undefined);
        if (!b || !missing || req.headers['x-consent-type']) return;
        const consent: Consent = {
          consentId: randomUUID(),
          type: 'ais',
          clientId: req.token!.clientId,
          psuId: (req.headers['psu-id'] as string | undefined) || 'sandbox-psu',
          context: req.token?.scopes.has('corporate') ? 'corporate' : 'private',
          access: b.access ?? { balances: [], transactions: [] },
          recurringIndicator: b.recurringIndicator ?? false,
          validUntil: b.validUntil ?? today(),
          frequencyPerDay: b.frequencyPerDay ?? 1,
          combinedServiceIndicator: b.combinedServiceIndicator ?? false,
          status: 'received',
          createdAt: Date.now(),
        };
        app.sandbox.consents.set(consent.consentId, consent);
        reply.header('Location', `/psd2/consent/v1/consents/${consent.consentId}`);
        throw formatError(`${missing} is required`, missing);
      }),
  },
  {
    id: 'consents.recurring-expires-former-at-creation',
    description: "creating a recurring consent (before its authorisation) expires the PSU's former recurring consent",
    breaks: ['consents.state.recurring-expires-former'],
    install: (app) =>
      app.addHook('onResponse', async (req, reply) => {
        if (req.method !== 'POST' || !CREATE.test(req.routeOptions.url ?? '') || reply.statusCode !== 201) return;
        const b = bodyOf(req);
        if (!b?.recurringIndicator || req.headers['x-consent-type'] || !req.token) return;
        const psuId = (req.headers['psu-id'] as string | undefined) || 'sandbox-psu';
        for (const c of validRecurring(app, req.token.clientId, undefined, psuId)) c.status = 'expired';
      }),
  },
  {
    id: 'consents.recurring-expires-other-psus',
    description:
      'authorising a recurring consent expires the recurring consents of every PSU of the TPP, not only its own',
    breaks: ['consents.state.recurring-expires-former'],
    install: (app) =>
      wrapConsentEnd(app, (listener, auth) => {
        listener(auth);
        const c = app.sandbox.consents.get(auth.resource.id);
        if (!c || c.type !== 'ais' || !c.recurringIndicator || c.status !== 'valid') return;
        for (const other of validRecurring(app, c.clientId, c)) other.status = 'expired';
      }),
  },
  deadStatusLink('consents.created-status-link-dead', 'create consent', CREATE, 'consents.create.response'),
];

export default faults;
