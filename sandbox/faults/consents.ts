import { isoDay, today } from '../../spec/iso8601.js';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Authorisation } from '../sca/engine.js';
import { expireFormerRecurring } from '../consents/store.js';
import { formatError } from '../errors.js';
import { type Fault } from './fault.js';
import { beforeGuard, serveWithScope, beforeHandler, rewriteJson, rewriteReply } from '../hooks.js';
import { asOwner, esc, params, refuseAsFormatError, wrapConsentEnd } from './shapes.js';

const CREATE = /^\/psd2\/consent\/v1\/consents$/;
const ONE = /^\/psd2\/consent\/v1\/consents\/:consentId$/;
const STATUS = /^\/psd2\/consent\/v1\/consents\/:consentId\/status$/;
const ANY_CONSENT = /^\/psd2\/consent\//;
const CONSENT = '/psd2/consent/v1/consents';

type Body = Record<string, any>;
const body = (req: { body: unknown }) => (req.body && typeof req.body === 'object' ? (req.body as Body) : undefined);
const refs = (b: Body | undefined): Body[] =>
  (['accounts', 'balances', 'transactions'] as const).flatMap((k) =>
    Array.isArray(b?.access?.[k]) ? (b!.access[k] as Body[]) : [],
  );

/** Bends the consent service's reaction to the end of an SCA (faults install before the routes register their listener). */

const consentOf = (app: FastifyInstance, auth: Authorisation) => app.sandbox.consents.get(auth.resource.id);

const faults: Fault[] = [
  {
    id: 'consents.created-without-scastatus-link',
    description:
      'create consent answers _links without scaStatus (the state table: "consentId and the links `status` and `scaStatus` are returned")',
    breaks: ['consents.create.response', 'consents.create.complete'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: CREATE }, (b: Body, req) => {
        if (!req.headers['x-consent-type']) delete b._links?.scaStatus;
      }),
  },
  {
    id: 'consents.created-scastatus-link-not-a-link',
    description: 'create consent answers _links.scaStatus as a bare string, not a link object with href',
    breaks: ['consents.create.response'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: CREATE }, (b: Body, req) => {
        if (!req.headers['x-consent-type'] && b._links?.scaStatus) b._links.scaStatus = b._links.scaStatus.href;
      }),
  },
  {
    id: 'consents.created-without-headers',
    description: 'the 201 of create consent has no Location and no ASPSP-SCA-Approach',
    breaks: ['consents.create.headers'],
    install: (app) =>
      rewriteReply(app, { method: 'POST', route: CREATE }, (_req, reply) => {
        reply.removeHeader('Location');
        reply.removeHeader('ASPSP-SCA-Approach');
      }),
  },
  {
    id: 'consents.required-field-defaulted',
    description: 'a create consent without combinedServiceIndicator is served as if it were false',
    breaks: ['consents.create.required-fields', 'consents.create.required-fields-code'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: CREATE }, (req) => {
        const b = body(req);
        if (b && b.combinedServiceIndicator === undefined) b.combinedServiceIndicator = false;
      }),
  },
  {
    id: 'consents.strings-coerced',
    description: 'booleans and integers given as strings are coerced instead of rejected',
    breaks: ['consents.create.field-types', 'consents.create.field-types-code'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: CREATE }, (req) => {
        const b = body(req);
        if (!b) return;
        for (const k of ['recurringIndicator', 'combinedServiceIndicator'])
          if (b[k] === 'true' || b[k] === 'false') b[k] = b[k] === 'true';
        if (typeof b.frequencyPerDay === 'string' && /^\d+$/.test(b.frequencyPerDay))
          b.frequencyPerDay = Number(b.frequencyPerDay);
      }),
  },
  {
    id: 'consents.error-code-generic',
    description: 'create consent errors carry code BAD_REQUEST and no path',
    breaks: ['consents.create.format-error'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: CREATE, status: 400 }, (b: Body) => {
        for (const m of b.tppMessages ?? []) {
          m.code = 'BAD_REQUEST';
          delete m.path;
        }
      }),
  },
  {
    id: 'consents.masked-pan-refused',
    description: 'account references by maskedPan are refused',
    breaks: ['consents.create.account-references'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: CREATE }, (req) => {
        if (refs(body(req)).some((r) => r.maskedPan !== undefined))
          throw formatError('maskedPan is not supported', 'access');
      }),
  },
  {
    id: 'consents.iban-check-digits-unchecked',
    description: 'an IBAN with wrong check digits is accepted',
    breaks: ['consents.create.account-reference-iban-check'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: CREATE }, (req) => {
        for (const r of refs(body(req))) if (r.iban === 'DE00370400440532013000') r.iban = 'DE89370400440532013000';
      }),
  },
  {
    id: 'consents.reference-without-id-accepted',
    description: 'an account reference with none of iban, maskedPan or pan is accepted (taken as a known IBAN)',
    breaks: ['consents.create.account-reference-invalid'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: CREATE }, (req) => {
        for (const r of refs(body(req)))
          if (r.iban === undefined && r.maskedPan === undefined && r.pan === undefined)
            r.iban = 'DE89370400440532013000';
      }),
  },
  {
    id: 'consents.frequency-zero-accepted',
    description: 'frequencyPerDay 0 is taken as 1',
    breaks: ['consents.limits.frequency-min', 'consents.limits.frequency-min-code'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: CREATE }, (req) => {
        const b = body(req);
        if (b?.frequencyPerDay === 0) b.frequencyPerDay = 1;
      }),
  },
  {
    id: 'consents.frequency-five-accepted',
    description: 'frequencyPerDay 5 is accepted (taken as 4)',
    breaks: ['consents.limits.frequency-max', 'consents.limits.frequency-max-code'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: CREATE }, (req) => {
        const b = body(req);
        if (b?.frequencyPerDay === 5) b.frequencyPerDay = 4;
      }),
  },
  {
    id: 'consents.one-off-frequency-unchecked',
    description: 'a one-off consent accepts any frequencyPerDay',
    breaks: ['consents.limits.frequency-one-off', 'consents.limits.frequency-one-off-code'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: CREATE }, (req) => {
        const b = body(req);
        if (b && b.recurringIndicator === false && typeof b.frequencyPerDay === 'number' && b.frequencyPerDay > 1)
          b.frequencyPerDay = 1;
      }),
  },
  {
    id: 'consents.past-valid-until-accepted',
    description: 'a validUntil in the past is moved to tomorrow instead of rejected',
    breaks: ['consents.valid-until.past'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: CREATE }, (req) => {
        const b = body(req);
        const now = today();
        if (typeof b?.validUntil === 'string' && b.validUntil < now) b.validUntil = isoDay(Date.now() + 86_400_000);
      }),
  },
  {
    id: 'consents.valid-until-later-than-asked',
    description: 'read consent returns validUntil one year later than stored',
    breaks: ['consents.valid-until.not-later'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: ONE }, (b: Body) => {
        if (typeof b.validUntil === 'string')
          b.validUntil = `${Number(b.validUntil.slice(0, 4)) + 1}${b.validUntil.slice(4)}`;
      }),
  },
  {
    id: 'consents.maximum-valid-until-refused',
    description: 'validUntil 9999-12-31 is rejected as too far ahead instead of taken as the maximum',
    breaks: ['consents.valid-until.maximum'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: CREATE }, (req) => {
        if (body(req)?.validUntil === '9999-12-31') throw formatError('validUntil is too far ahead', 'validUntil');
      }),
  },
  {
    id: 'consents.combined-service-refused',
    description:
      'create consent with combinedServiceIndicator true is refused with 400 FORMAT_ERROR and tppMessages (a clear refusal of a value the field allows)',
    breaks: ['consents.create.combined-service'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: CREATE }, (req) => {
        if (body(req)?.combinedServiceIndicator === true)
          throw formatError('combined services are not supported', 'combinedServiceIndicator');
      }),
  },
  {
    id: 'consents.read-access-dropped',
    description: 'read consent answers an empty access object',
    breaks: ['consents.read.fields'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: ONE }, (b: Body) => {
        b.access = {};
      }),
  },
  {
    id: 'consents.read-without-account-link',
    description: 'read consent answers no _links (listed, not required: a completeness warning)',
    breaks: ['consents.read.complete'],
    install: (app) => rewriteJson(app, { method: 'GET', route: ONE }, (b: Body) => void delete b._links),
  },
  {
    id: 'consents.status-field-renamed',
    description: 'consent status answers status instead of consentStatus',
    breaks: ['consents.status.response'],
    install: (app) => rewriteJson(app, { method: 'GET', route: STATUS }, (b: Body) => ({ status: b.consentStatus })),
  },
  {
    id: 'consents.status-unknown-value',
    description: "consent status answers 'deleted' (no Berlin Group value) where the consent is terminatedByTpp",
    breaks: ['consents.status.values', 'consents.status.follows'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: STATUS }, (b: Body) => {
        if (b.consentStatus === 'terminatedByTpp') b.consentStatus = 'deleted';
      }),
  },
  {
    id: 'consents.delete-does-nothing',
    description: 'delete consent answers 204 but leaves the consent as it was',
    breaks: ['consents.delete.terminated', 'consents.status.follows'],
    // Its 204 is Berlin Group's reading: allowed under either (the reference profile pins message-and-links).
    claims: { consents: { deleteAnswer: 'either' } },
    install: (app) =>
      app.addHook('preHandler', async (req, reply) => {
        if (req.method !== 'DELETE' || !ONE.test(req.routeOptions.url ?? '')) return;
        const c = app.sandbox.consents.get((req.params as { consentId: string }).consentId);
        if (c && c.clientId === req.token?.clientId) await reply.status(204).send();
      }),
  },
  {
    id: 'consents.unknown-read-answered',
    description: 'reading an unknown consentId answers 200 with a received consent',
    breaks: ['consents.unknown.rejected', 'consents.unknown.code'],
    install: (app) =>
      app.addHook('preHandler', async (req, reply) => {
        if (req.method !== 'GET' || !ONE.test(req.routeOptions.url ?? '')) return;
        if (!app.sandbox.consents.get((req.params as { consentId: string }).consentId))
          await reply.status(200).send({ consentStatus: 'received' });
      }),
  },
  {
    id: 'consents.never-valid',
    description: 'a consent stays received when its SCA is finalised',
    breaks: [
      'consents.state.valid-after-sca',
      'consents.state.recurring-expires-former',
      'consents.state.one-off-keeps-former',
    ],
    install: (app) =>
      wrapConsentEnd(app, (listener, auth) => {
        if (auth.status !== 'finalised') listener(auth);
      }),
  },
  {
    id: 'consents.failed-sca-stays-received',
    description: 'a consent stays received when its SCA fails',
    breaks: ['consents.state.rejected-after-failed-sca'],
    install: (app) =>
      wrapConsentEnd(app, (listener, auth) => {
        if (auth.status !== 'failed') listener(auth);
      }),
  },
  {
    id: 'consents.former-recurring-left-valid',
    description: 'a new recurring consent, once authorised, leaves the former recurring consent valid',
    breaks: ['consents.state.recurring-expires-former'],
    install: (app) =>
      wrapConsentEnd(app, (listener, auth) => {
        const before = [...app.sandbox.consents.values()].filter((c) => c.status === 'valid');
        listener(auth);
        for (const c of before) c.status = 'valid';
      }),
  },
  {
    id: 'consents.one-off-expires-former',
    description: 'authorising a one-off consent expires the recurring consent of the PSU',
    breaks: ['consents.state.one-off-keeps-former'],
    install: (app) =>
      wrapConsentEnd(app, (listener, auth) => {
        listener(auth);
        const c = consentOf(app, auth);
        // The clean rule (a new recurring consent ends the former one), applied to a one-off consent.
        if (c && !c.recurringIndicator && c.status === 'valid') expireFormerRecurring(app.sandbox.consents.values(), c);
      }),
  },
  {
    id: 'consents.direct-debit-type-refused',
    description: 'X-Consent-Type sepaDirectDebit is refused',
    breaks: ['consents.create.direct-debit'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: CREATE }, (req) => {
        if (req.headers['x-consent-type'] === 'sepaDirectDebit')
          throw formatError('X-Consent-Type is not supported', 'X-Consent-Type');
      }),
  },
  {
    id: 'consents.scope-not-checked',
    description: 'any API scope is accepted on the consent operations',
    breaks: ['consents.scope.accountinformation'],
    install: (app) =>
      beforeGuard(app, { route: ANY_CONSENT }, (req) => {
        serveWithScope(app, req, 'accountinformation');
      }),
  },
  {
    id: 'consents.consent-other-tpp',
    description: "another TPP can read, delete and authorise a consent (the consent's owner is not checked)",
    breaks: ['consents.ownership.other-tpp', 'consents.ownership.other-tpp-code'],
    install: (app) =>
      beforeHandler(app, { route: new RegExp(`^${esc(CONSENT)}\\/:consentId(\\/status|\\/authorisations)?$`) }, (req) =>
        asOwner(req, app.sandbox.consents.get(params(req).consentId ?? '')?.clientId),
      ),
  },
  {
    id: 'consents.consent-other-tpp-400',
    description: "another TPP's calls on a consent are refused with 400 FORMAT_ERROR, not CONSENT_UNKNOWN",
    breaks: ['consents.ownership.other-tpp-code'],
    install: (app) =>
      beforeHandler(app, { route: new RegExp(`^${esc(CONSENT)}\\/:consentId(\\/status)?$`) }, (req) =>
        refuseAsFormatError(req, app.sandbox.consents.get(params(req).consentId ?? '')?.clientId),
      ),
  },
  {
    id: 'consents.consent-delete-twice',
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
    id: 'consents.valid-until-today-refused',
    description: 'create consent refuses a validUntil of today as if it were in the past',
    breaks: ['consents.valid-until.today'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: new RegExp(`^${esc(CONSENT)}$`) }, (req) => {
        if ((req.body as { validUntil?: unknown } | undefined)?.validUntil === today())
          throw formatError(`validUntil ${today()} is in the past`, 'validUntil');
      }),
  },
  {
    id: 'consents.consent-body-not-json',
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
              validUntil: isoDay(Date.now() + 30 * 86_400_000),
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
    id: 'consents.combined-service-5xx',
    description: 'create consent with combinedServiceIndicator true fails with a 500',
    breaks: ['consents.create.combined-service'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: new RegExp(`^${esc(CONSENT)}$`) }, (req) => {
        if ((req.body as { combinedServiceIndicator?: unknown } | undefined)?.combinedServiceIndicator === true)
          throw new Error('combined service not implemented');
      }),
  },
];

export default faults;
