import { createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BgError, formatError } from '../errors.js';
import {
  beforeGuard,
  beforeHandler,
  answerWithoutBody,
  keepDeletedBasketAsCancelled,
  rewriteJson,
  serveWithScope,
  wrapConsentEnd,
} from '../hooks.js';
import { requestHeader } from '../plugins/guard.js';
import type { Variant } from './variant.js';

const PAYMENT_AUTHORISATIONS =
  /^\/psd2\/paymentinitiation\/v1\/:paymentService\/:paymentProduct\/:paymentId\/authorisations$/;
const CONSENT_AUTHORISATIONS = /^\/psd2\/consent\/v1\/consents\/:consentId\/authorisations$/;
const BASKET_AUTHORISATIONS = /^\/psd2\/paymentinitiation\/v1\/signing-baskets\/:basketId\/authorisations$/;
const ANY = /./;
const CONSENTS = /^\/psd2\/consent\/v1\/consents$/;
const ANY_CONSENT = /^\/psd2\/consent\//;
/** The start (update PSU data) of any authorisation: a consent's, a payment's, a cancellation's, a basket's. */
const AUTHORISATION_START = /\/(cancellation-)?authorisations\/:authorisationId$/;

/** What Berlin Group's empty cancel answer meets: the answer's readings, and the states read after it. */
const CANCEL_CONCERNS = [
  'payments.cancel.response',
  'payments.cancel.status-and-links',
  'payments.cancel.complete',
  'payments.cancel.cancelled-after-sca',
  'payments.cancel.authorised-future-dated',
  'payments.cancel.states.walk',
];

type Links = Record<string, { href?: unknown } | undefined>;

/** Calls `edit` on every `_links` object of a JSON body, however deep. */
function eachLinks(body: unknown, edit: (links: Links) => void): void {
  if (Array.isArray(body)) return body.forEach((x) => eachLinks(x, edit));
  if (!body || typeof body !== 'object') return;
  for (const [key, value] of Object.entries(body)) {
    if (key === '_links' && value && typeof value === 'object' && !Array.isArray(value)) edit(value as Links);
    else eachLinks(value, edit);
  }
}

/** Rewrites every href of every `_links` of the JSON answers. */
function rewriteHrefs(app: FastifyInstance, map: (href: string, req: FastifyRequest) => string): void {
  rewriteJson(app, { route: ANY, status: (s) => s < 400 }, (body, req) =>
    eachLinks(body, (links) => {
      for (const link of Object.values(links)) {
        if (link && typeof link.href === 'string') link.href = map(link.href, req);
      }
    }),
  );
}

/** The resource base path of the flow guide for a short `/v1/...` link (Versioning 3). */
function longForm(href: string): string {
  const m = /^\/v1\/(.*)$/.exec(href);
  if (!m) return href;
  const rest = m[1];
  if (rest.startsWith('consents')) return `/psd2/consent/v1/${rest}`;
  if (rest.startsWith('accounts')) return `/psd2/accountinformation/v1/${rest}`;
  return `/psd2/paymentinitiation/v1/${rest}`;
}

/** Header names as the specification and the reference facts spell them. */
const SPEC_CASE: Record<string, string> = {
  'x-request-id': 'X-Request-ID',
  'aspsp-sca-approach': 'ASPSP-SCA-Approach',
};
const titleCase = (name: string) =>
  name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());

/** Optional fields, link names, bodies and header spellings the specification allows. */
/** The checks that follow or compare `_links` hrefs: where another spelling of the links shows. */
const LINK_CHECKS = [
  'consents.create.response',
  'payments.initiate.response',
  'payments.cancel.start-authorisation-link',
  'signing-baskets.create.response',
  'accounts.account.links',
  'accounts.transactions.account-link',
  'authorisations.create.response',
];

/** How long after the new recurring consent's SCA the batch expires the former one. */
const EXPIRY_BATCH_MS = 8000;

const variants: Variant[] = [
  {
    id: 'consents.former-expired-by-batch',
    description: `a new recurring consent, once authorised, expires the former one by a batch ${EXPIRY_BATCH_MS / 1000} s later (valid until then)`,
    allows:
      '| valid recurring consent | a new consent with recurringIndicator true for the same PSU is authorised | a former recurring consent for the same PSU exists | the former consent expires | | (States: no delay named)',
    concerns: ['consents.state.recurring-expires-former', 'consents.state.one-off-keeps-former'],
    warns: [],
    install: (app) =>
      wrapConsentEnd(app, (listener, auth) => {
        const valid = [...app.sandbox.consents.values()].filter((c) => c.status === 'valid');
        listener(auth);
        const expired = valid.filter((c) => c.status === 'expired');
        for (const c of expired) c.status = 'valid';
        setTimeout(() => {
          for (const c of expired) if (c.status === 'valid') c.status = 'expired';
        }, EXPIRY_BATCH_MS).unref();
      }),
  },
  {
    id: 'consents.delete-no-content',
    description:
      "delete consent answers Berlin Group's 204 with no body instead of the message-and-links structure, under a profile claiming consents.deleteAnswer no-content",
    allows: 'DELETE consent → 204',
    concerns: ['consents.delete.terminated', 'consents.delete.message-and-links'],
    warns: [],
    claims: { consents: { deleteAnswer: 'no-content' } },
    install: (app) => answerWithoutBody(app, 'delete-consent'),
  },
  {
    id: 'payments.cancel-no-content',
    description:
      "a cancellation that needs no authorisation answers Berlin Group's 204 with no body instead of transactionStatus and links, under a profile claiming payments.cancelAnswer no-content",
    allows: 'DELETE payment → 204',
    concerns: CANCEL_CONCERNS,
    warns: [],
    claims: { payments: { cancelAnswer: 'no-content' } },
    install: (app) => answerWithoutBody(app, 'cancel'),
  },
  {
    id: 'signing-baskets.deleted-readable-canc',
    description:
      'a deleted signing basket stays readable, its read and status answering transactionStatus CANC, under a profile that pins no reading (signingBaskets.afterDelete either, the default)',
    allows:
      'A signing basket can be deleted only until a first (partial) authorisation has been applied. (States; what "deleted" reads as afterwards is not shown. reference-facts: A deleted signing basket may still be read, with `transactionStatus` `CANC`)',
    concerns: [
      'signing-baskets.delete.before-authorisation',
      'signing-baskets.delete.cancelled-status',
      'signing-baskets.delete.payments-untouched',
      'signing-baskets.ownership.other-tpp',
    ],
    warns: [],
    claims: { signingBaskets: { afterDelete: 'either' } },
    install: (app) => keepDeletedBasketAsCancelled(app),
  },
  {
    id: 'signing-baskets.deleted-readable-rjct',
    description: 'a deleted signing basket stays readable, its read and status answering transactionStatus RJCT',
    allows:
      'A signing basket can be deleted only until a first (partial) authorisation has been applied. (States; what "deleted" reads as afterwards is not shown: CANC is only a reference fact)',
    concerns: ['signing-baskets.delete.before-authorisation', 'signing-baskets.delete.cancelled-status'],
    warns: ['signing-baskets.delete.cancelled-status'],
    claims: { signingBaskets: { afterDelete: 'either' } },
    install: (app) => keepDeletedBasketAsCancelled(app, 'RJCT'),
  },
  {
    id: 'headers.no-location',
    description:
      'no answer carries a Location header (a 201 of create consent or initiate payment included); redirects of the login page keep theirs',
    allows:
      'The `Location` header of a 201 is Berlin Group practice; the specification never names it. (reference-facts, Freedoms real implementations use)',
    concerns: [
      'consents.create.headers',
      'consents.create.response',
      'consents.create.required-fields',
      'payments.initiate.headers',
      'payments.initiate.response',
      'payments.initiate.required-fields',
      'signing-baskets.create.response',
      'direct-debit.create.response',
    ],
    warns: ['consents.create.headers', 'payments.initiate.headers'],
    install: (app) =>
      app.addHook('onSend', async (_req, reply, payload) => {
        if (reply.statusCode < 300) reply.removeHeader('location');
        return payload;
      }),
  },
  {
    id: 'payments.cancel-no-content-unpinned',
    description:
      "a cancellation that needs no authorisation answers Berlin Group's 204 with no body, under a profile that pins no reading (payments.cancelAnswer either, the default)",
    allows: 'DELETE payment → 204',
    concerns: CANCEL_CONCERNS,
    warns: [],
    claims: { payments: { cancelAnswer: 'either' } },
    install: (app) => answerWithoutBody(app, 'cancel'),
  },
  {
    id: 'payments.start-authorisation-psu-data',
    description:
      "a payment's start authorisation requires a non-empty psuData (operations table) and a consent's or basket's takes no body (flow guide), under a profile claiming payments.startAuthorisationBody operations-table",
    allows:
      '| Start authorisation | POST base path/`<paymentId>`/authorisations | body `psuData` (required, non-empty); authorisation start response |',
    concerns: [
      'authorisations.start.any-method',
      'authorisations.start.unknown-method',
      'payments.authorisations.create',
      'payments.sca.accepted',
      'payments.authorisations.list',
      'consents.state.valid-after-sca',
      'authorisations.create.response',
      'signing-baskets.sca.moves-payments',
      'payments.authorisations.psu-data-required',
      'payments.authorisations.psu-data-required-code',
    ],
    warns: [],
    claims: { payments: { startAuthorisationBody: 'operations-table' } },
    install: (app) => {
      beforeHandler(app, { method: 'POST', route: PAYMENT_AUTHORISATIONS }, (req) => {
        const psuData = (req.body as { psuData?: unknown } | undefined)?.psuData;
        if (!psuData || typeof psuData !== 'object' || Object.keys(psuData).length === 0)
          throw formatError('the start authorisation of a payment needs a non-empty psuData', 'psuData');
      });
      for (const route of [CONSENT_AUTHORISATIONS, BASKET_AUTHORISATIONS]) {
        beforeHandler(app, { method: 'POST', route }, (req) => {
          const body = req.body;
          if (body !== undefined && body !== null && !(typeof body === 'object' && Object.keys(body).length === 0))
            throw formatError('this start authorisation takes no body', 'psuData');
        });
      }
    },
  },
  {
    id: 'authorisations.null-method-as-absent',
    description:
      'update PSU data reads an authenticationMethodId of null as left out: the update without a method (the decoupled answer), which starts nothing and leaves the authorisation received',
    allows:
      "| Update PSU data | PUT base path/`<consentId>`/authorisations/`<authorisationId>` | selects a method, sends PSU authentication or authorises (embedded). Request body variants: not shown beyond the empty object | (the start's body: `authenticationMethodId` (string), section F 2; what a JSON null of a member means is not shown, and many JSON readers take it as the member left out)",
    concerns: ['authorisations.start.unknown-method', 'authorisations.start.unknown-method-code'],
    warns: [],
    install: (app) =>
      beforeHandler(app, { method: 'PUT', route: AUTHORISATION_START }, (req) => {
        const body = req.body as { authenticationMethodId?: unknown } | undefined;
        if (body && body.authenticationMethodId === null) delete body.authenticationMethodId;
      }),
  },
  {
    // The sandbox's own header names are lower case already (Fastify's): this shows the other spelling.
    id: 'headers.spec-case-names',
    description:
      "every response header name is sent in the specification's spelling (X-Request-ID, ASPSP-SCA-Approach, Location, Content-Type), not the sandbox's lower case",
    allows: 'HTTP header names are case-insensitive on the wire; JSON field names are case-sensitive.',
    concerns: [
      'authorisations.start.any-method',
      'headers.x-request-id.echo',
      'consents.create.headers',
      'payments.initiate.headers',
      'authorisations.start.decoupled',
      'headers.content-type.json',
    ],
    warns: [],
    install: (app) =>
      app.addHook('onSend', async (_req, reply, payload) => {
        for (const [name, value] of Object.entries(reply.getHeaders())) {
          if (value === undefined) continue;
          reply.removeHeader(name);
          reply.raw.setHeader(SPEC_CASE[name] ?? titleCase(name), value as string | number | string[]);
        }
        return payload;
      }),
  },
  {
    id: 'links.relative-hrefs',
    description: 'every _links href is relative, without a leading slash (v1/consents/…)',
    allows:
      'Links in responses use shorter prefixes (`/v1/...`) than the resource base paths of the flow guide. (Versioning 3; a link is an object with `href` (string))',
    concerns: [...LINK_CHECKS, 'direct-debit.create.links'],
    warns: [],
    install: (app) => rewriteHrefs(app, (href) => (/^\/(v1|iso)\//.test(href) ? href.slice(1) : href)),
  },
  {
    id: 'links.absolute-long-form',
    description: "every short /v1/... href is an absolute URL with the flow guide's long resource path",
    allows:
      "Links inside responses may use the shorter `/v1/...` form (specification, Versioning 3): a suite must resolve a link against the target's base, not assume one prefix. (reference facts; specification: A link is an object with `href` (string).)",
    concerns: LINK_CHECKS,
    warns: [],
    install: (app) =>
      rewriteHrefs(app, (href, req) =>
        href.startsWith('/v1/') ? `${req.protocol}://${req.headers.host}${longForm(href)}` : href,
      ),
  },
  {
    id: 'links.other-names',
    description:
      'responses carry further link names the specification lists: updatePsuIdentification beside scaStatus, startAuthorisationWithPsuIdentification beside startAuthorisation',
    allows:
      'Link names seen: scaRedirect, scaOAuth, startAuthorisation, startAuthorisationWithPsuIdentification, updatePsuIdentification, […] Further names are allowed as free properties.',
    concerns: [
      'consents.create.response',
      'payments.initiate.response',
      'payments.cancel.start-authorisation-link',
      'signing-baskets.create.response',
      'authorisations.create.response',
      'payments.multilevel.no-sca-links',
    ],
    warns: [],
    install: (app) =>
      rewriteJson(app, { route: ANY, status: (s) => s < 400 }, (body) =>
        eachLinks(body, (links) => {
          if (links.scaStatus?.href) links.updatePsuIdentification = { href: links.scaStatus.href };
          if (links.startAuthorisation?.href)
            links.startAuthorisationWithPsuIdentification = { href: links.startAuthorisation.href };
        }),
      ),
  },
  {
    id: 'authorisations.qr-rotates-on-the-clock',
    description:
      'the animated QR token rotates on every full second of the clock (its first token lives less than a second)',
    allows:
      '`mbid_animated_qr_token`: `challengeData.data` holds the token from which the client renders its own QR code. The code is valid for 1 second.',
    concerns: ['authorisations.start.any-method', 'authorisations.qr.token-rotates', 'authorisations.qr.image'],
    warns: [],
    install: (app) => {
      app.sandbox.sca.qrToken = (auth, at = Date.now()) => {
        if (!auth.qrSecret || !auth.startedAt) return undefined;
        const second = Math.floor(at / 1000);
        const mac = createHmac('sha256', auth.qrSecret).update(String(second)).digest('hex').slice(0, 32);
        return `bankid.${auth.autoStartToken}.${second}.${mac}`;
      };
    },
  },
  {
    id: 'direct-debit.consent-under-paymentinitiation',
    description:
      'a direct debit consent is created with a paymentinitiation corporate token (an accountinformation one is refused) and authorised, read and deleted with it, under a profile claiming directDebit.consentScope paymentinitiation',
    allows:
      'Prerequisite: an authorised consent created with `X-Consent-Type: sepaDirectDebit`. The token scope is `paymentinitiation corporate`.',
    concerns: [
      'consents.create.direct-debit',
      'direct-debit.flow.section-h',
      'direct-debit.confirm.file-uploaded',
      'direct-debit.confirm.consent-authorised',
      'direct-debit.confirm.consent-direct-debit',
    ],
    warns: [],
    claims: { directDebit: { consentScope: 'paymentinitiation' } },
    install: (app) =>
      beforeGuard(app, { route: ANY_CONSENT }, (req) => {
        const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
        const scopes = (m && app.sandbox.tokens.get(m[1])?.scopes) || new Set<string>();
        const creating = req.method === 'POST' && CONSENTS.test(req.routeOptions.url ?? '');
        const id = (req.params as { consentId?: string } | undefined)?.consentId;
        const direct = creating
          ? requestHeader(req, 'X-Consent-Type') === 'sepaDirectDebit'
          : !!id && app.sandbox.consents.get(id)?.type === 'sepaDirectDebit';
        if (!direct) return;
        if (scopes.has('paymentinitiation')) serveWithScope(app, req, 'accountinformation');
        else if (creating)
          throw new BgError(
            401,
            'TOKEN_INVALID',
            'a direct debit consent is created with the scope "paymentinitiation corporate"',
          );
      }),
  },
];

export default variants;
