import type { FastifyRequest } from 'fastify';
import { rewriteJson } from '../hooks.js';
import type { Variant } from './variant.js';

/*
 * Listed is not required: a field the specification only lists in a response description, with no
 * stated rule, may be left out. Each variant leaves out every such field of one area's responses
 * (keeping what a stated rule or the flow needs: the ids the next operation addresses, the status a
 * status operation exists to return, validUntil of read consent, challengeData of a decoupled start,
 * the scaOAuth and startAuthorisation links where a sentence gives them a rule, ...). The suite must
 * stay conformant, warning only on the completeness SHOULDs of that area.
 */

type Body = Record<string, unknown>;
type Links = Record<string, unknown>;

const CONSENTS = /^\/psd2\/consent\/v1\/consents$/;
const CONSENT = /^\/psd2\/consent\/v1\/consents\/:consentId$/;
const INITIATE = /^\/psd2\/paymentinitiation\/v1\/:paymentService\/:paymentProduct$/;
const PAYMENT = /^\/psd2\/paymentinitiation\/v1\/:paymentService\/:paymentProduct\/:paymentId$/;
const BASKETS = /^\/psd2\/paymentinitiation\/v1\/signing-baskets$/;
const BASKET = /^\/psd2\/paymentinitiation\/v1\/signing-baskets\/:basketId$/;
/** The authorisation sub-resources of every resource (consent, payment, cancellation, basket). */
const AUTHORISATIONS = /\/(authorisations|cancellation-authorisations)$/;
const AUTHORISATION = /\/(authorisations|cancellation-authorisations)\/:authorisationId$/;
const DIRECT_DEBIT = /^\/iso\/beta\/payments\/sepa-direct-debit$/;
const TOKEN = /^\/connect\/token$/;

/** Deletes `fields` of a body. */
const drop = (b: Body | undefined, ...fields: string[]) => {
  if (b && typeof b === 'object') for (const f of fields) delete b[f];
};

/** Deletes the named links, and _links itself when nothing is left. */
const dropLinks = (b: Body | undefined, ...names: string[]) => {
  const links = b?._links as Links | undefined;
  if (!links || typeof links !== 'object') return;
  for (const n of names) delete links[n];
  if (Object.keys(links).length === 0) delete b!._links;
};

const form = (req: FastifyRequest) => (req.body && typeof req.body === 'object' ? (req.body as Body) : {});

const variants: Variant[] = [
  {
    id: 'omitted.consents',
    description:
      'create consent answers consentId and its status and scaStatus links only; read consent answers validUntil only (consentStatus, access, recurringIndicator, frequencyPerDay and _links left out)',
    allows:
      'Create-consent response: `consentStatus` (string), `consentId` (string), `_links` with `status` and `scaStatus`. Read-consent response: `access`, `recurringIndicator`, `validUntil`, `frequencyPerDay`, `consentStatus`, `_links` (with `account`). (Resources > Consent: the fields are listed; a rule is stated for consentId, the id the operations address, and validUntil, "The read-consent response carries the adjusted date")',
    concerns: [
      'consents.create.response',
      'consents.create.complete',
      'consents.create.direct-debit',
      'consents.read.fields',
      'consents.read.complete',
      'consents.valid-until.maximum',
      'consents.valid-until.not-later',
      'consents.delete.terminated',
      'consents.state.valid-after-sca',
    ],
    warns: ['consents.create.complete', 'consents.read.complete'],
    install: (app) => {
      // The links status and scaStatus stay: the state table states that they are returned.
      rewriteJson(app, { method: 'POST', route: CONSENTS }, (b: Body) => drop(b, 'consentStatus'));
      rewriteJson(app, { method: 'GET', route: CONSENT }, (b: Body) =>
        drop(b, 'access', 'recurringIndicator', 'frequencyPerDay', 'consentStatus', '_links'),
      );
    },
  },
  {
    id: 'omitted.payments',
    description:
      'initiate payment answers paymentId and its self link (and startAuthorisation where mandated) only; read payment the submitted fields only; a cancellation transactionStatus and one link (startAuthorisation where mandated, else status) only',
    allows:
      'Initiate-payment response: `transactionStatus`, `paymentId`, `_links` (`self`, `status`, `scaStatus`). (Resources > Payment: the fields are listed; the read-payment response "returns the submitted fields plus" transactionStatus among others; the cancel answer lists links `self`, `status`; rules are stated for paymentId and links ("paymentId and links returned"), the submitted fields, the status in a cancellation answer and the startAuthorisation link)',
    concerns: [
      'payments.initiate.response',
      'payments.initiate.complete',
      'payments.read.fields',
      'payments.read.complete',
      'payments.cancel.response',
      'payments.cancel.complete',
      'payments.cancel.status-and-links',
      'payments.cancel.start-authorisation-link',
      'payments.cancel.states.walk',
      'payments.multilevel.no-sca-links',
      'payments.status.response',
    ],
    warns: ['payments.initiate.complete', 'payments.read.complete', 'payments.cancel.complete'],
    install: (app) => {
      rewriteJson(app, { method: 'POST', route: INITIATE }, (b: Body) => {
        drop(b, 'transactionStatus');
        // One link stays: the state table states "paymentId and links returned", not which.
        dropLinks(b, 'status', 'scaStatus');
      });
      rewriteJson(app, { method: 'GET', route: PAYMENT }, (b: Body) => drop(b, 'transactionStatus'));
      // One link stays here too: section D states "response: transactionStatus and links", not which.
      rewriteJson(app, { method: 'DELETE', route: PAYMENT }, (b: Body) =>
        (b._links as Links | undefined)?.startAuthorisation ? dropLinks(b, 'self', 'status') : dropLinks(b, 'self'),
      );
    },
  },
  {
    id: 'omitted.signing-baskets',
    description: 'create basket answers basketId only; read basket paymentIds only',
    allows:
      '| `_links` | object | on creation: `self`, `status`, `startAuthorisation` | (Resources > Signing basket: transactionStatus and the links are listed; rules are stated for basketId, "returned on creation", and paymentIds, "in the create body and the read response")',
    concerns: [
      'signing-baskets.create.response',
      'signing-baskets.create.complete',
      'signing-baskets.read.response',
      'signing-baskets.read.complete',
      'signing-baskets.status.response',
    ],
    warns: ['signing-baskets.create.complete', 'signing-baskets.read.complete'],
    install: (app) => {
      rewriteJson(app, { method: 'POST', route: BASKETS }, (b: Body) => drop(b, 'transactionStatus', '_links'));
      rewriteJson(app, { method: 'GET', route: BASKET }, (b: Body) => drop(b, 'transactionStatus'));
    },
  },
  {
    id: 'omitted.authorisations',
    description:
      'every authorisation answers only what a rule or the flow needs: authorisationId and scaMethods (authenticationMethodId) on creation, challengeData (and scaOAuth, and psuMessage for the animated QR image) on a start, an empty object on update PSU data',
    allows:
      '| Authorisation start response (consent, payment, cancellation, basket) | scaStatus, authorisationId, psuMessage, `_links.scaStatus` | (Authorisation and SCA data: the fields of the create-authorisation, start-authorisation, update PSU data responses and of the SCA method are listed; rules are stated for authorisationId and the list of SCA methods, authenticationMethodId "taken from scaMethods", "challengeData or the `scaOAuth` link is returned", and the psuMessage of `mbid_animated_qr_image`)',
    concerns: [
      'authorisations.start.any-method',
      'authorisations.create.response',
      'authorisations.create.complete',
      'authorisations.sca-method.complete',
      'authorisations.create.start-response',
      'authorisations.create.start-response-complete',
      'authorisations.start.decoupled',
      'authorisations.start.complete',
      'authorisations.update-psu-data.decoupled',
      'authorisations.update-psu-data.complete',
      'authorisations.qr.image',
      'payments.authorisations.create',
      'payments.authorisations.start-response',
      'payments.authorisations.start-response-complete',
      'payments.authorisations.start',
      'payments.authorisations.update-psu-data',
      'payments.cancel.update-psu-data',
      'payments.authorisations.update-psu-data-complete',
      'signing-baskets.authorisation.start',
      'signing-baskets.authorisation.start-complete',
      'signing-baskets.authorisation.update-psu-data',
      'signing-baskets.authorisation.update-psu-data-complete',
    ],
    warns: [
      'authorisations.create.complete',
      'authorisations.sca-method.complete',
      'authorisations.create.start-response-complete',
      'authorisations.start.complete',
      'authorisations.update-psu-data.complete',
      'payments.authorisations.start-response-complete',
      'payments.authorisations.update-psu-data-complete',
      'signing-baskets.authorisation.start-complete',
      'signing-baskets.authorisation.update-psu-data-complete',
    ],
    install: (app) => {
      rewriteJson(app, { method: 'POST', route: AUTHORISATIONS }, (b: Body) => {
        drop(b, 'scaStatus', 'psuMessage', '_links');
        if (Array.isArray(b.scaMethods)) for (const m of b.scaMethods as Body[]) drop(m, 'authenticationType', 'name');
      });
      rewriteJson(app, { method: 'PUT', route: AUTHORISATION }, (b: Body, req) => {
        const method = (form(req) as { authenticationMethodId?: unknown }).authenticationMethodId;
        if (method === undefined) return void drop(b, 'scatransactionStatus', 'psuMessage', '_links');
        // "The response also carries `psuMessage`" for the animated QR image (endpoint section F).
        drop(b, 'chosenScaMethod', 'scaStatus', ...(method === 'mbid_animated_qr_image' ? [] : ['psuMessage']));
        dropLinks(b, 'scaStatus');
      });
    },
  },
  {
    id: 'omitted.direct-debit',
    description: 'create SEPA direct debit payment answers paymentId only (transactionStatus and _links left out)',
    allows:
      'Response: `transactionStatus` (`RCVD`), `paymentId`, `_links` (`confirmPayment` to `/iso/payments/confirm`, `self` to `/iso/payments/<paymentId>`). (Endpoint section H 1: the fields are listed; confirm and get have their own paths, `/iso/payments/confirm` and `/iso/payments/<paymentId>`)',
    concerns: [
      'direct-debit.create.response',
      'direct-debit.create.complete',
      'direct-debit.create.links',
      'direct-debit.get.fields',
      'direct-debit.flow.section-h',
    ],
    warns: ['direct-debit.create.complete'],
    install: (app) => {
      rewriteJson(app, { method: 'POST', route: DIRECT_DEBIT }, (b: Body) => drop(b, 'transactionStatus', '_links'));
    },
  },
  {
    id: 'omitted.oauth',
    description: 'the code exchange answers access_token and token_type only (expires_in and scope left out)',
    allows:
      '`access_token` (string), `expires_in` (integer, seconds), `token_type` (`Bearer`), `scope` (string). (Access token response: the fields are listed; RFC 6749 5.1 makes expires_in RECOMMENDED and scope OPTIONAL when identical to the scope requested)',
    concerns: ['oauth.token.exchange', 'oauth.token.complete'],
    warns: ['oauth.token.complete'],
    install: (app) => {
      rewriteJson(app, { method: 'POST', route: TOKEN }, (b: Body, req) => {
        if (form(req).grant_type === 'authorization_code') drop(b, 'expires_in', 'scope');
      });
    },
  },
];

export default variants;
