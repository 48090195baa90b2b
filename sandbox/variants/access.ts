import type { FastifyInstance, FastifyRequest } from 'fastify';
import { accountsOf } from '../accounts/service.js';
import { BgError } from '../errors.js';
import { requestHeader } from '../plugins/guard.js';
import { TERMINAL } from '../sca/engine.js';
import { BoundedMap } from '../store.js';
import type { Variant } from './variant.js';

/** POST of an authorisation or a cancellation authorisation, on any resource. */
const AUTHORISATIONS = /\/(authorisations|cancellation-authorisations)$/;
const isAuthorisationPost = (req: FastifyRequest) =>
  req.method === 'POST' && AUTHORISATIONS.test(req.routeOptions.url ?? '');
const ACCOUNT_READS = /^\/psd2\/accountinformation\/v1\/accounts/;
/** A payment's read (GET), its status (GET) and its cancel (DELETE). */
const PAYMENT_READS = /^\/psd2\/paymentinitiation\/v1\/:paymentService\/:paymentProduct\/:paymentId(\/status)?$/;
const bearer = (req: FastifyRequest) => /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];

/** The PSU tokens of the code exchange: token → id of the consent its authorisation authorised. */
export function bindPsuTokens(app: FastifyInstance): Map<string, string> {
  const bound = new BoundedMap<string, string>(app.sandbox.options.maxResources);
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.method !== 'POST' || req.routeOptions.url !== '/connect/token' || reply.statusCode !== 200) return payload;
    const consentId = requestHeader(req, 'X-ConsentId');
    if (!consentId || typeof payload !== 'string') return payload;
    try {
      const token = (JSON.parse(payload) as { access_token?: unknown }).access_token;
      if (typeof token === 'string') bound.set(token, consentId);
    } catch {
      /* not JSON: no token */
    }
    return payload;
  });
  return bound;
}

/**
 * How a bank counts access and authorisations: the "one access" of a one-off consent as another
 * implementation counts it, and one open authorisation per resource.
 */
/** One requirement of every accounts spec file, so that the whole area runs under a variant. */
const EVERY_ACCOUNTS_FILE = [
  'accounts.access.account-outside',
  'accounts.list.shape',
  'accounts.balances.shape',
  'accounts.consent.terminated',
  'accounts.frequency.access-exceeded',
  'accounts.transactions.shape',
  'headers.consent-id.account-reads',
];

const variants: Variant[] = [
  {
    id: 'accounts.one-off-per-resource',
    description:
      'a one-off consent allows each read endpoint once per account (a repeated read gets 429 ACCESS_EXCEEDED) instead of ending after its first read',
    allows:
      'Implementations count "one access" differently: xs2a allows each read endpoint once per account (a repeated read gets 429 `ACCESS_EXCEEDED`); others end the consent after the first read (401 `CONSENT_EXPIRED`). (reference facts, Ownership, one-off access and repeated operations)',
    concerns: ['accounts.one-off.second-read', 'accounts.one-off.second-read-code', ...EVERY_ACCOUNTS_FILE],
    warns: [],
    install: (app) => {
      accountsOf(app).oneOff = 'per-resource';
    },
  },
  {
    id: 'tokens.psu-token-on-reads',
    description:
      "account reads under a valid consent need the PSU's token from the code exchange of that consent's redirect authorisation (401 TOKEN_INVALID with the application token), under a profile claiming tokens.accountReads psu",
    allows:
      'Response: access token response. The returned token need not be stored or used in later calls. (endpoint section G: "need not", so a bank may still ask for it; the profile claims that reading)',
    concerns: ['accounts.token.psu-required', 'accounts.one-off.second-read', ...EVERY_ACCOUNTS_FILE],
    warns: [],
    claims: { tokens: { accountReads: 'psu' } },
    install: (app) => {
      const bound = bindPsuTokens(app);
      // After the route's own checks (preValidation): a refused consent keeps its own answer.
      app.addHook('preHandler', async (req) => {
        if (req.method !== 'GET' || !ACCOUNT_READS.test(req.routeOptions.url ?? '')) return;
        const token = bearer(req);
        const consentId = requestHeader(req, 'Consent-ID');
        if (!token || !consentId || bound.get(token) !== consentId)
          throw new BgError(
            401,
            'TOKEN_INVALID',
            "account reads need the PSU's token of the consent, from the code exchange of its authorisation",
          );
      });
    },
  },
  {
    id: 'tokens.psu-token-on-payment-reads',
    description:
      "the read, status and cancel of a payment whose SCA ended with a code exchange need the PSU's token of that exchange (401 TOKEN_INVALID with the application token or another payment's token), under a profile claiming tokens.paymentReads psu",
    allows:
      'Response: access token response. The returned token need not be stored or used in later calls. (endpoint section G: "need not", so a bank may still ask for it; the profile claims that reading)',
    concerns: [
      'payments.sca.accepted',
      'payments.cancel.time-limit',
      'payments.authorisations.final-resource',
      'payments.read.fields',
      'payments.status.response',
      'payments.cancel.response',
      'payments.cancel.states.walk',
    ],
    warns: [],
    claims: { tokens: { paymentReads: 'psu' } },
    install: (app) => {
      /** token → paymentId of the payment whose authorisation's code it was exchanged for. */
      const bound = new BoundedMap<string, string>(app.sandbox.options.maxResources);
      /** Payments whose SCA ended with a code exchange: from then on, their reads need the PSU's token. */
      const exchanged = new BoundedMap<string, true>(app.sandbox.options.maxResources);
      app.addHook('onSend', async (req, reply, payload) => {
        if (req.method !== 'POST' || req.routeOptions.url !== '/connect/token' || reply.statusCode !== 200)
          return payload;
        const paymentId = requestHeader(req, 'X-PaymentId');
        if (!paymentId || typeof payload !== 'string') return payload;
        try {
          const token = (JSON.parse(payload) as { access_token?: unknown }).access_token;
          if (typeof token === 'string') {
            bound.set(token, paymentId);
            exchanged.set(paymentId, true);
          }
        } catch {
          /* not JSON: no token */
        }
        return payload;
      });
      // After the route's own checks (preValidation): an unknown payment keeps its own answer.
      app.addHook('preHandler', async (req) => {
        const url = req.routeOptions.url ?? '';
        if (!PAYMENT_READS.test(url) || !(req.method === 'GET' || req.method === 'DELETE')) return;
        const paymentId = (req.params as { paymentId?: string }).paymentId;
        if (!paymentId || !exchanged.get(paymentId)) return;
        const token = bearer(req);
        if (!token || bound.get(token) !== paymentId)
          throw new BgError(
            401,
            'TOKEN_INVALID',
            "the payment's SCA ended with a code exchange: its reads need the PSU's token of that exchange",
          );
      });
    },
  },
  {
    id: 'authorisations.one-open-per-resource',
    description:
      'a POST of an authorisation (or cancellation authorisation) is refused with 409 STATUS_INVALID while another the TPP created by POST on the same resource has not ended, outside a corporate context (the authorisation the bank creates itself with the consent is not counted)',
    allows:
      '| Start authorisation | POST base path/`<consentId>`/authorisations | no body; authorisation start response. Repeated once per required SCA in a corporate context. The bank may create the authorisation automatically after create consent | (endpoint section B: a repeated start authorisation is called for per required SCA in a corporate context only)',
    // The list checks create a second authorisation; the others each need one authorisation of a resource of their own.
    concerns: [
      'authorisations.start.any-method',
      'authorisations.start.unknown-method',
      'authorisations.list.contains',
      'authorisations.create.response',
      'authorisations.start.decoupled',
      'authorisations.status.ends',
      'payments.authorisations.list',
      'payments.authorisations.create',
      'payments.cancel.authorisations',
      'payments.cancel.states.walk',
      'consents.state.valid-after-sca',
      'signing-baskets.create.response',
      'oauth.token.exchange',
    ],
    warns: [],
    install: (app) => {
      /** Authorisations created by POST, by the collection path they were created on. */
      const created = new BoundedMap<string, string[]>(app.sandbox.options.maxResources);
      const collection = (req: FastifyRequest) => req.url.split('?')[0];
      app.addHook('preHandler', async (req) => {
        if (!isAuthorisationPost(req)) return;
        const open = (created.get(collection(req)) ?? [])
          .map((id) => app.sandbox.sca.get(id))
          .find((a) => a && !TERMINAL.has(a.status) && a.resource.context !== 'corporate');
        if (open)
          throw new BgError(
            409,
            'STATUS_INVALID',
            `authorisation ${open.authorisationId} of this resource is still ${open.status}; end it before creating another`,
          );
      });
      app.addHook('onSend', async (req, reply, payload) => {
        if (!isAuthorisationPost(req) || reply.statusCode !== 201 || typeof payload !== 'string') return payload;
        try {
          const id = (JSON.parse(payload) as { authorisationId?: unknown }).authorisationId;
          if (typeof id === 'string') created.set(collection(req), [...(created.get(collection(req)) ?? []), id]);
        } catch {
          /* not JSON: nothing to remember */
        }
        return payload;
      });
    },
  },
];

export default variants;
