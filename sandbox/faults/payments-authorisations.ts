import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Fault } from './fault.js';
import { rewriteJson, rewriteReply } from '../hooks.js';
import { fakeAuthorisation, params } from './shapes.js';

// The authorisation sub-resources of a payment (endpoint section D): its authorisations and its
// cancellation authorisations, the collection (POST) and one authorisation (GET status, PUT).
const INITIATE_PATH = '/psd2/paymentinitiation/v1/:paymentService/:paymentProduct';
const AUTHORISATIONS = /\/:paymentService\/:paymentProduct\/:paymentId\/authorisations$/;
const AUTHORISATION = /\/:paymentService\/:paymentProduct\/:paymentId\/authorisations\/:authorisationId$/;
const CANCELLATION = /\/:paymentService\/:paymentProduct\/:paymentId\/cancellation-authorisations\/:authorisationId$/;
const ANY_COLLECTION = /\/:paymentService\/:paymentProduct\/:paymentId\/(authorisations|cancellation-authorisations)$/;
const ANY_ONE =
  /\/:paymentService\/:paymentProduct\/:paymentId\/(authorisations|cancellation-authorisations)\/:authorisationId$/;

type Body = Record<string, any>;

/** Update PSU data (a PUT without authenticationMethodId), not a start. */
const isUpdate = (req: FastifyRequest) =>
  (req.body as { authenticationMethodId?: unknown } | undefined)?.authenticationMethodId === undefined;
const authOf = (app: FastifyInstance, req: FastifyRequest) =>
  app.sandbox.sca.get((req.params as { authorisationId?: string }).authorisationId ?? '');

const faults: Fault[] = [
  {
    id: 'payments.cancellation-authorisation-without-sca-methods',
    description: 'the create of a cancellation authorisation (POST) answers its authorisationId without scaMethods',
    breaks: ['payments.cancel.authorisation-sca-methods'],
    install: (app) =>
      rewriteJson(
        app,
        { method: 'POST', route: /\/:paymentService\/:paymentProduct\/:paymentId\/cancellation-authorisations$/ },
        (b: Body) => void delete b.scaMethods,
      ),
  },
  {
    id: 'payments.authorisation-sca-method-type-not-string',
    description: "the scaMethods of a payment's create authorisation give authenticationType as a number",
    breaks: ['payments.authorisations.create'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: AUTHORISATIONS }, (b: Body) => {
        b.scaMethods = (b.scaMethods ?? []).map((m: Body, i: number) => ({ ...m, authenticationType: i + 1 }));
      }),
  },
  {
    id: 'payments.authorisation-psu-message-not-string',
    description: 'the start-authorisation POST of a payment answers psuMessage as an object, not a string',
    breaks: ['payments.authorisations.create', 'payments.authorisations.start-response'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: AUTHORISATIONS }, (b: Body) => {
        if (typeof b.psuMessage === 'string') b.psuMessage = { text: b.psuMessage };
      }),
  },
  {
    id: 'payments.authorisation-sca-status-link-not-object',
    description:
      'the start-authorisation POST of a payment and of a cancellation answers _links.scaStatus as a bare string, not a link object',
    breaks: ['payments.authorisations.create', 'payments.authorisations.start-response'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: ANY_COLLECTION }, (b: Body) => {
        if (b._links?.scaStatus?.href) b._links.scaStatus = b._links.scaStatus.href;
      }),
  },
  {
    id: 'payments.authorisation-start-response-without-psu-message',
    description:
      'the start-authorisation POST of a payment and of a cancellation answers no psuMessage (listed, not required: a completeness warning)',
    breaks: ['payments.authorisations.start-response-complete'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: ANY_COLLECTION }, (b: Body) => {
        delete b.psuMessage;
      }),
  },
  {
    id: 'payments.authorisation-start-without-approach',
    description: 'starting a payment or cancellation authorisation answers without aspsp-sca-approach',
    breaks: ['payments.authorisations.start', 'authorisations.start.any-method'],
    install: (app) =>
      rewriteReply(app, { method: 'PUT', route: ANY_ONE }, (req, reply) => {
        if (!isUpdate(req)) reply.removeHeader('ASPSP-SCA-Approach');
      }),
  },
  {
    id: 'payments.authorisation-status-tpp-messages-not-array',
    description: 'the SCA status of a payment authorisation answers tppMessages as a string, not an array of messages',
    breaks: ['payments.authorisations.sca-status'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: AUTHORISATION }, (b: Body) => {
        b.tppMessages = `SCA ${String(b.scaStatus)}`;
      }),
  },
  {
    id: 'payments.authorisation-update-status-not-string',
    description: 'update PSU data on a payment authorisation answers scatransactionStatus as an array, not a string',
    breaks: ['payments.authorisations.update-psu-data'],
    install: (app) =>
      rewriteJson(app, { method: 'PUT', route: AUTHORISATION }, (b: Body, req) => {
        if (isUpdate(req) && typeof b.scatransactionStatus === 'string')
          b.scatransactionStatus = [b.scatransactionStatus];
      }),
  },
  {
    id: 'payments.authorisation-cancellation-update-embedded',
    description:
      'update PSU data on a cancellation authorisation answers an embedded-style body (scaStatus, an OTP challenge and _links.authoriseTransaction as a bare string) instead of the decoupled response',
    breaks: ['payments.cancel.update-psu-data', 'payments.authorisations.update-psu-data-complete'],
    install: (app) =>
      rewriteJson(app, { method: 'PUT', route: CANCELLATION }, (b: Body, req) => {
        if (!isUpdate(req)) return undefined;
        return {
          scaStatus: 'psuAuthenticated',
          challengeData: { otpMaxLength: 6, otpFormat: 'characters' },
          psuMessage: b.psuMessage,
          _links: { authoriseTransaction: req.url.split('?')[0] },
        };
      }),
  },
  {
    id: 'payments.authorisation-failed-reads-finalised',
    description: 'a failed payment authorisation reads finalised a second after it ended',
    breaks: ['payments.authorisations.failed-stable'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: AUTHORISATION }, (b: Body, req) => {
        const auth = authOf(app, req);
        if (auth?.status === 'failed' && Date.now() - (auth.endedAt ?? 0) > 1000) b.scaStatus = 'finalised';
      }),
  },
  {
    id: 'payments.authorisation-unknown-id-answered',
    description:
      'the SCA status, start and update PSU data of an unknown authorisationId on a payment are answered 200 with a received authorisation',
    breaks: ['payments.authorisations.unknown-id', 'payments.authorisations.unknown-id-code'],
    install: (app) =>
      app.addHook('onSend', async (req, reply, payload) => {
        const route = req.routeOptions.url ?? '';
        if (!AUTHORISATION.test(route) || reply.statusCode < 400 || authOf(app, req)) return payload;
        reply.code(200);
        return JSON.stringify({ scaStatus: 'received', psuMessage: 'Choose an authentication method.' });
      }),
  },
  {
    id: 'payments.authorisation-unknown-id-format-error',
    description: 'an unknown authorisationId on a payment is answered 400 FORMAT_ERROR instead of RESOURCE_UNKNOWN',
    breaks: ['payments.authorisations.unknown-id-code'],
    install: (app) =>
      rewriteJson(app, { route: AUTHORISATION, status: (s) => s === 403 || s === 404 }, (b: Body, req, reply) => {
        if (authOf(app, req)) return undefined;
        reply.code(400);
        for (const m of b.tppMessages ?? []) if (m.code === 'RESOURCE_UNKNOWN') m.code = 'FORMAT_ERROR';
        return b;
      }),
  },
  {
    id: 'payments.authorise-final-payment',
    description: 'create authorisation on a rejected or already accepted payment answers 201',
    breaks: ['payments.authorisations.final-resource'],
    install: (app) =>
      app.addHook('preValidation', async (req, reply) => {
        if (req.method !== 'POST' || req.routeOptions.url !== `${INITIATE_PATH}/:paymentId/authorisations`) return;
        const p = app.sandbox.payments.payments.get(params(req).paymentId ?? '');
        if (p && !app.sandbox.payments.awaitingSca(p)) return fakeAuthorisation(req, reply);
      }),
  },
];

export default faults;
