import { isoDay } from '../../spec/iso8601.js';
import { randomUUID } from 'node:crypto';
import { isIso13616Iban } from '../../spec/iso13616.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { expireFormerRecurring, type Consent } from '../consents/store.js';
import type { Authorisation } from '../sca/engine.js';
import { BgError, formatError } from '../errors.js';
import { requestHeader } from '../plugins/guard.js';
import { schemaRef } from '../plugins/validation.js';
import { assertRedirectUri } from '../payments/headers.js';
import { registerAuthorisationRoutes } from './sca.js';

const BASE = '/psd2/consent/v1/consents';
const SHORT = '/v1/consents';
const config = { api: true, bicFi: true, scope: 'accountinformation' as const };
const CREATE = { body: schemaRef('consents/consent-request') };
/** Consent statuses no authorisation can change any more. */
const FINAL_CONSENT: ReadonlySet<string> = new Set(['rejected', 'terminatedByTpp', 'revokedByPsu', 'expired']);
/** The longest validity the sandbox grants; 9999-12-31 asks for it. */
const MAX_VALIDITY_DAYS = 180;

/** The PSU behind a request: PSU-ID, or the sandbox's default PSU. */
export function psuOf(req: FastifyRequest): { psuId: string; corporateId?: string; context: 'private' | 'corporate' } {
  const context = req.token?.scopes.has('corporate') ? 'corporate' : 'private';
  const corporateId = requestHeader(req, 'PSU-Corporate-ID');
  if (corporateId && context !== 'corporate') {
    throw formatError(
      'PSU-Corporate-ID is allowed only in a corporate context (token scope corporate)',
      'PSU-Corporate-ID',
    );
  }
  return { psuId: requestHeader(req, 'PSU-ID') || 'sandbox-psu', corporateId, context };
}

/** The consent of the path, this TPP's (403 CONSENT_UNKNOWN otherwise). */
const consentLoader =
  (app: FastifyInstance) =>
  (req: FastifyRequest): Consent => {
    const id = (req.params as { consentId: string }).consentId;
    const c = app.sandbox.consents.get(id);
    if (!c || c.clientId !== req.token?.clientId)
      throw new BgError(403, 'CONSENT_UNKNOWN', `no consent ${id} for this TPP`, 'consentId');
    return c;
  };

/**
 * The end of a consent's SCA: valid, or rejected when it failed; a new recurring account-information
 * consent ends the PSU's former one.
 */
const endConsentSca = (app: FastifyInstance) => (auth: Authorisation) => {
  const c = app.sandbox.consents.get(auth.resource.id);
  if (!c || c.status !== 'received') return;
  if (auth.status === 'failed') {
    c.status = 'rejected';
    return;
  }
  c.status = 'valid';
  // A new recurring consent, once authorised, ends the former recurring consent of the PSU; a
  // direct debit consent is long-lived and ends only when the PSU revokes it or it expires
  // (Resources > Consent), so the rule is the account-information consents' alone.
  if (c.recurringIndicator && c.type === 'ais') expireFormerRecurring(app.sandbox.consents.values(), c);
};

/** POST consents: checks beyond the schema, the consent, and its automatically created authorisation. */
const createConsent = (app: FastifyInstance) => async (req: FastifyRequest, reply: FastifyReply) => {
  assertRedirectUri(req);
  const body = req.body as Omit<Consent, 'consentId'>;
  for (const list of ['accounts', 'balances', 'transactions'] as const) {
    (body.access[list] ?? []).forEach((ref, i) => {
      if (ref.iban !== undefined && !isIso13616Iban(ref.iban))
        throw formatError(`${ref.iban} is not a valid IBAN (ISO 13616 check digits)`, `access.${list}[${i}].iban`);
    });
  }
  if (!body.recurringIndicator && body.frequencyPerDay !== 1)
    throw formatError('one-off access (recurringIndicator false) uses frequencyPerDay 1', 'frequencyPerDay');
  const today = new Date();
  const max = new Date(today.getTime() + MAX_VALIDITY_DAYS * 86_400_000);
  if (body.validUntil < isoDay(today)) throw formatError(`validUntil ${body.validUntil} is in the past`, 'validUntil');
  const consentType = requestHeader(req, 'X-Consent-Type');
  if (consentType !== undefined && consentType !== 'sepaDirectDebit')
    throw formatError(`X-Consent-Type "${consentType}" is not supported (sepaDirectDebit)`, 'X-Consent-Type');
  const psu = psuOf(req);
  const consent: Consent = {
    consentId: randomUUID(),
    type: consentType === 'sepaDirectDebit' ? 'sepaDirectDebit' : 'ais',
    clientId: req.token!.clientId,
    ...psu,
    access: body.access,
    recurringIndicator: body.recurringIndicator,
    validUntil: body.validUntil > isoDay(max) ? isoDay(max) : body.validUntil,
    frequencyPerDay: body.frequencyPerDay,
    combinedServiceIndicator: body.combinedServiceIndicator,
    status: 'received',
    createdAt: Date.now(),
  };
  app.sandbox.consents.set(consent.consentId, consent);
  // The bank may create the authorisation automatically after create consent (section B).
  const auth = app.sandbox.sca.create({
    type: 'consent',
    id: consent.consentId,
    clientId: consent.clientId,
    psuId: consent.psuId,
    context: consent.context,
  });
  reply
    .status(201)
    .header('Location', `${BASE}/${consent.consentId}`)
    .header('ASPSP-SCA-Approach', requestHeader(req, 'TPP-Redirect-Preferred') === 'true' ? 'REDIRECT' : 'DECOUPLED');
  return {
    consentStatus: consent.status,
    consentId: consent.consentId,
    _links: {
      self: { href: `${SHORT}/${consent.consentId}` },
      status: { href: `${SHORT}/${consent.consentId}/status` },
      scaStatus: { href: `${SHORT}/${consent.consentId}/authorisations/${auth.authorisationId}` },
      startAuthorisation: { href: `${SHORT}/${consent.consentId}/authorisations` },
    },
  };
};

/** Consent service (endpoint section B) and the consent authorisations (F). */
export default async function consentRoutes(app: FastifyInstance): Promise<void> {
  const load = consentLoader(app);
  app.sandbox.sca.onEnd('consent', endConsentSca(app));
  app.post(BASE, { config, schema: CREATE }, createConsent(app));

  app.get(`${BASE}/:consentId`, { config }, async (req) => {
    const c = load(req);
    return {
      access: c.access,
      recurringIndicator: c.recurringIndicator,
      validUntil: c.validUntil,
      frequencyPerDay: c.frequencyPerDay,
      consentStatus: c.status,
      _links: { account: { href: '/v1/accounts' } },
    };
  });

  app.get(`${BASE}/:consentId/status`, { config }, async (req) => ({ consentStatus: load(req).status }));

  app.delete(`${BASE}/:consentId`, { config }, async (req, reply) => {
    const c = load(req);
    if (c.status === 'terminatedByTpp')
      throw new BgError(401, 'CONSENT_INVALID', 'the consent has already been deleted', 'consentId');
    c.status = 'terminatedByTpp';
    // Section B: "response uses the message-and-links structure" (Berlin Group's empty 204 is the
    // variant consents.delete-no-content).
    reply.status(200);
    return {
      tppMessages: [{ category: 'INFORMATION', code: 'WARNING', path: 'consentId', text: 'the consent is terminated' }],
      _links: { status: { href: `/v1/consents/${c.consentId}/status` } },
    };
  });

  registerAuthorisationRoutes(app, {
    base: `${BASE}/:consentId`,
    sub: 'authorisations',
    scope: 'accountinformation',
    listKey: 'authorisationIds',
    names: { resource: 'consent', ResourceType: 'Consent' },
    load: (req) => {
      const c = load(req);
      // A consent in a final status cannot be authorised (reference-facts: repeated operations).
      if (req.method === 'POST' && FINAL_CONSENT.has(c.status))
        throw new BgError(409, 'STATUS_INVALID', `the consent is ${c.status}: it cannot be authorised`);
      return { type: 'consent', id: c.consentId, clientId: c.clientId, psuId: c.psuId, context: c.context };
    },
  });
}
