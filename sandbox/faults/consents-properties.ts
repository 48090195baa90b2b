import type { FastifyInstance } from 'fastify';
import type { Fault } from './fault.js';
import { BgError } from '../errors.js';
import { beforeHandler, rewriteJson } from '../hooks.js';
import { params } from './shapes.js';

// Faults that sit between the hand-written checks' points and that only the generated phase
// (tests/consents/properties/) finds: the hand-written read-back sends two references in each list;
// a status that moves back after one order of calls (consent-walks.spec.ts); a malformed currency in
// one nested reference, a character beyond Latin-1 in an update's psuData (robustness.spec.ts).
// The hand-written checks alone pass each.

const CONSENT = /^\/psd2\/consent\/v1\/consents\/[^/]+$/;
const CREATE = /^\/psd2\/consent\/v1\/consents$/;

const AUTHORISATIONS = '/psd2/consent/v1/consents/:consentId/authorisations';
const PSU_UPDATE = /\/consents\/:consentId\/authorisations\/:authorisationId$/;

type Body = Record<string, unknown>;

const faults: Fault[] = [
  {
    id: 'consents.frequency-above-five-capped',
    caughtBy: 'properties',
    description: 'a frequencyPerDay of 6 or more is taken as 4 (5, the value the hand-written check sends, is refused)',
    breaks: ['consents.limits.frequency-max'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: CREATE }, (req) => {
        const b = req.body as { frequencyPerDay?: unknown } | undefined;
        if (typeof b?.frequencyPerDay === 'number' && b.frequencyPerDay >= 6) b.frequencyPerDay = 4;
      }),
  },
  {
    id: 'consents.read-keeps-two-references',
    caughtBy: 'properties',
    description:
      'read consent answers at most the first two account references of each access list (a third and a fourth are dropped)',
    breaks: ['consents.read.fields'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: CONSENT }, (body: { access?: Record<string, unknown> }) => {
        for (const [list, refs] of Object.entries(body.access ?? {}))
          if (Array.isArray(refs)) body.access![list] = refs.slice(0, 2);
      }),
  },
  {
    id: 'consents.combined-session-declined-though-offered',
    caughtBy: 'properties',
    description:
      'create consent with combinedServiceIndicator true is declined with 400 SESSIONS_NOT_SUPPORTED, by a bank whose profile claims combined sessions offered (consents.combinedSessions, the reference profile)',
    breaks: ['consents.create.combined-service', 'consents.create.response'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: CREATE }, (req) => {
        if ((req.body as { combinedServiceIndicator?: unknown } | undefined)?.combinedServiceIndicator === true)
          throw new BgError(
            400,
            'SESSIONS_NOT_SUPPORTED',
            'combined sessions are not offered',
            'combinedServiceIndicator',
          );
      }),
  },
  {
    id: 'consents.baseline-declined-as-sessions',
    caughtBy: 'properties',
    description:
      'every create consent, combinedServiceIndicator false included, is declined with 400 SESSIONS_NOT_SUPPORTED, by a bank whose profile lets it decline combined sessions: a decline beside a refused baseline',
    // Refusing the baseline, every check that makes it fails or is blocked: the ones its spec files judge.
    breaks: [
      'consents.create.response',
      'consents.create.combined-service',
      'consents.create.response-code',
      'consents.valid-until.today',
    ],
    claims: { consents: { combinedSessions: 'may-decline' } },
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: CREATE }, () => {
        throw new BgError(
          400,
          'SESSIONS_NOT_SUPPORTED',
          'combined sessions are not offered',
          'combinedServiceIndicator',
        );
      }),
  },
  {
    id: 'consents.deleted-revived-by-refused-authorisation',
    caughtBy: 'properties',
    description:
      'a refused create authorisation on a deleted consent (terminatedByTpp) sets its consentStatus back to received',
    breaks: ['consents.states.walk'],
    install: (app: FastifyInstance) =>
      app.addHook('onResponse', async (req, reply) => {
        if (req.method !== 'POST' || req.routeOptions.url !== AUTHORISATIONS) return;
        if (reply.statusCode < 400 || reply.statusCode >= 500) return;
        const c = app.sandbox.consents.get(params(req).consentId ?? '');
        if (c?.status === 'terminatedByTpp') c.status = 'received';
      }),
  },
  {
    id: 'consents.transactions-reference-currency-server-error',
    caughtBy: 'properties',
    description:
      "create consent fails with 500 on an account reference of access.transactions whose currency is not three capital letters (the balances' references are checked and refused with 400, as the schema has it)",
    breaks: ['consents.robustness.any-input'],
    install: (app) =>
      beforeHandler(app, { method: 'POST', route: CREATE }, (req) => {
        const refs = ((req.body as Body | undefined)?.access as Body | undefined)?.transactions;
        if (!Array.isArray(refs)) return;
        for (const r of refs as Body[])
          if (r && typeof r === 'object' && 'currency' in r && !/^[A-Z]{3}$/.test(String(r.currency)))
            throw new Error('currency lookup failed');
      }),
  },
  {
    id: 'consents.psu-data-beyond-latin1-server-error',
    caughtBy: 'properties',
    description:
      "update PSU data of a consent's authorisation fails with 500 when a text of its psuData holds a character beyond Latin-1 (Greek, Cyrillic, Chinese, an emoji): the bank stores the PSU's data in a Latin-1 column",
    breaks: ['consents.robustness.any-input'],
    install: (app) =>
      beforeHandler(app, { method: 'PUT', route: PSU_UPDATE }, (req) => {
        const psuData = (req.body as Body | null | undefined)?.psuData;
        if (psuData && typeof psuData === 'object' && /[\u0100-\u{10ffff}]/u.test(JSON.stringify(psuData)))
          throw new Error('psuData: incorrect string value');
      }),
  },
];

export default faults;
