import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SCA_METHODS, TERMINAL } from '../sca/engine.js';
import { type Fault } from './fault.js';
import { beforeHandler, rewriteJson, rewriteReply } from '../hooks.js';
import { asOwner, esc, fakeAuthorisation, params } from './shapes.js';
import { formatError } from '../errors.js';

// The generic authorisation routes, as registered on consents (the resource the suite drives them on).
const COLLECTION = /^\/psd2\/consent\/v1\/consents\/:consentId\/authorisations$/;
const ONE = /^\/psd2\/consent\/v1\/consents\/:consentId\/authorisations\/:authorisationId$/;
const CONSENT = '/psd2/consent/v1/consents';
const CANCELLATION_ONE = /\/:paymentId\/cancellation-authorisations\/:authorisationId$/;

const PAYMENT_AUTH =
  /^\/psd2\/paymentinitiation\/v1\/:paymentService\/:paymentProduct\/:paymentId\/authorisations\/:authorisationId$/;
const methodOf = (req: FastifyRequest) =>
  (req.body as { authenticationMethodId?: unknown } | undefined)?.authenticationMethodId;
const notPreferred = (req: FastifyRequest) => req.headers['tpp-redirect-preferred'] === 'false';
type Body = Record<string, any>;
const authOf = (app: FastifyInstance, params: unknown) =>
  app.sandbox.sca.get((params as { authorisationId?: string }).authorisationId ?? '');
const PNG_LOOKALIKE = `data:image/png;base64,${Buffer.from('GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x00\x00\x00\x00\x00,', 'latin1').toString('base64')}`;

const faults: Fault[] = [
  {
    id: 'authorisations.redirect-false-every-start-refused',
    description:
      'on a consent, a start with TPP-Redirect-Preferred false is refused whatever the method (400 FORMAT_ERROR: "a redirect is required"), though the bank offers decoupled methods',
    breaks: ['authorisations.redirect-preferred.false-consents', 'authorisations.start.decoupled'],
    install: (app) =>
      beforeHandler(app, { method: 'PUT', route: ONE }, (req) => {
        if (notPreferred(req)) throw formatError('a redirect is required', 'TPP-Redirect-Preferred');
      }),
  },
  {
    id: 'authorisations.sca-method-name-missing',
    description: 'the scaMethods of create authorisation have no name (listed, not required: a completeness warning)',
    breaks: ['authorisations.sca-method.complete'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: COLLECTION }, (b: Body) => {
        b.scaMethods = (b.scaMethods ?? []).map(({ name: _name, ...m }: Body) => m);
      }),
  },
  {
    id: 'authorisations.sca-method-name-not-string',
    description: 'the scaMethods of create authorisation give name as a number',
    breaks: ['authorisations.create.response'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: COLLECTION }, (b: Body) => {
        b.scaMethods = (b.scaMethods ?? []).map((m: Body, i: number) => ({ ...m, name: i + 1 }));
      }),
  },
  {
    id: 'authorisations.created-without-sca-status',
    description:
      'create authorisation answers no scaStatus (listed in both views of the answer, not required: completeness warnings)',
    breaks: ['authorisations.create.complete', 'authorisations.create.start-response-complete'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: COLLECTION }, (b: Body) => {
        delete b.scaStatus;
      }),
  },
  {
    id: 'authorisations.created-without-psu-message',
    description: 'the start-authorisation POST answers no psuMessage (listed, not required: a completeness warning)',
    breaks: ['authorisations.create.start-response-complete'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: COLLECTION }, (b: Body) => {
        delete b.psuMessage;
      }),
  },
  {
    id: 'authorisations.created-psu-message-not-string',
    description: 'the start-authorisation POST answers psuMessage as an object, not a string',
    breaks: ['authorisations.create.start-response'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: COLLECTION }, (b: Body) => {
        if (typeof b.psuMessage === 'string') b.psuMessage = { text: b.psuMessage };
      }),
  },
  {
    id: 'authorisations.list-empty',
    description: 'list authorisations answers an empty authorisationIds',
    breaks: ['authorisations.list.contains'],
    install: (app) => rewriteJson(app, { method: 'GET', route: COLLECTION }, () => ({ authorisationIds: [] })),
  },
  {
    id: 'authorisations.approach-header-missing',
    description: 'start authorisation answers without aspsp-sca-approach',
    breaks: ['authorisations.start.decoupled', 'authorisations.start.any-method'],
    install: (app) =>
      rewriteReply(app, { method: 'PUT', route: ONE }, (_req, reply) => {
        reply.removeHeader('ASPSP-SCA-Approach');
      }),
  },
  {
    id: 'authorisations.any-method-accepted',
    description: 'an authenticationMethodId not among scaMethods is taken as mbid_same_device',
    breaks: ['authorisations.start.unknown-method', 'authorisations.start.unknown-method-code'],
    install: (app) =>
      beforeHandler(app, { method: 'PUT', route: ONE }, (req) => {
        const b = req.body as Body | undefined;
        if (b && typeof b.authenticationMethodId === 'string' && !b.authenticationMethodId.startsWith('mbid'))
          b.authenticationMethodId = 'mbid_same_device';
      }),
  },
  {
    id: 'authorisations.update-psu-data-renamed',
    description:
      'update PSU data answers scaStatus instead of scatransactionStatus (listed, not required: a completeness warning)',
    breaks: ['authorisations.update-psu-data.complete'],
    install: (app) =>
      rewriteJson(app, { method: 'PUT', route: ONE }, (b: Body) => {
        if ('scatransactionStatus' in b) {
          b.scaStatus = b.scatransactionStatus;
          delete b.scatransactionStatus;
        }
      }),
  },
  {
    id: 'authorisations.update-psu-data-status-not-string',
    description: 'update PSU data answers scatransactionStatus as an array, not a string',
    breaks: ['authorisations.update-psu-data.decoupled'],
    install: (app) =>
      rewriteJson(app, { method: 'PUT', route: ONE }, (b: Body) => {
        if (typeof b.scatransactionStatus === 'string') b.scatransactionStatus = [b.scatransactionStatus];
      }),
  },
  {
    id: 'authorisations.started-without-chosen-method',
    description: 'a decoupled start answers no chosenScaMethod (listed, not required: a completeness warning)',
    breaks: ['authorisations.start.complete'],
    install: (app) =>
      rewriteJson(app, { method: 'PUT', route: ONE }, (b: Body) => {
        delete b.chosenScaMethod;
      }),
  },
  {
    id: 'authorisations.sca-always-fails',
    description: 'every decoupled SCA ends failed',
    breaks: ['authorisations.status.ends', 'authorisations.status.terminal-stable'],
    install: (app) => {
      const sca = app.sandbox.sca;
      const end = sca.end.bind(sca);
      sca.end = (auth, _outcome) => end(auth, 'failed');
    },
  },
  {
    id: 'authorisations.finalised-reverts',
    description: 'a finalised authorisation reads as started again a second after it ended',
    breaks: ['authorisations.status.terminal-stable'],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: ONE }, (b: Body, req) => {
        const auth = authOf(app, req.params);
        if (auth && auth.status === 'finalised' && TERMINAL.has(auth.status) && Date.now() - (auth.endedAt ?? 0) > 1000)
          b.scaStatus = 'started';
      }),
  },
  {
    id: 'authorisations.failing-psu-finalises',
    description: 'the SCA of the failing PSU finalises',
    breaks: ['authorisations.status.failed'],
    install: (app) => {
      const sca = app.sandbox.sca;
      const end = sca.end.bind(sca);
      sca.end = (auth, _outcome) => end(auth, 'finalised');
    },
  },
  {
    id: 'authorisations.sca-slow',
    description: 'a decoupled SCA takes 12 seconds to end',
    breaks: ['authorisations.sandbox.finalises-within'],
    install: (app) => {
      app.sandbox.sca.delayFor = () => 12_000;
    },
  },
  {
    id: 'authorisations.autostart-token-empty',
    description: 'the auto-start token of mbid_same_device is an empty string',
    breaks: ['authorisations.decoupled.autostart-token'],
    install: (app) =>
      rewriteJson(app, { route: ONE }, (b: Body, req) => {
        const auth = authOf(app, req.params);
        if (b.challengeData?.data && (auth?.methodId === 'mbid_same_device' || auth?.methodId === 'mbid'))
          b.challengeData.data = [''];
      }),
  },
  {
    id: 'authorisations.autostart-token-is-authorisation-id',
    description:
      'the auto-start token of mbid_same_device is the authorisationId (an id the TPP holds, not a token of its own)',
    breaks: ['authorisations.decoupled.autostart-token-own'],
    install: (app) =>
      rewriteJson(app, { route: ONE }, (b: Body, req) => {
        const auth = authOf(app, req.params);
        if (b.challengeData?.data && auth && (auth.methodId === 'mbid_same_device' || auth.methodId === 'mbid'))
          b.challengeData.data = [auth.authorisationId];
      }),
  },
  {
    id: 'authorisations.autostart-token-fixed',
    description: 'every mbid_same_device authorisation gets the same auto-start token',
    breaks: ['authorisations.decoupled.autostart-token-own'],
    install: (app) =>
      rewriteJson(app, { route: ONE }, (b: Body, req) => {
        const auth = authOf(app, req.params);
        if (b.challengeData?.data && (auth?.methodId === 'mbid_same_device' || auth?.methodId === 'mbid'))
          b.challengeData.data = ['sandbox-bankid-autostart'];
      }),
  },
  {
    id: 'authorisations.qr-token-frozen',
    description: 'the animated QR token never rotates',
    // The image draws the token, so its payload freezes too.
    breaks: ['authorisations.qr.token-rotates', 'authorisations.qr.image-decodes'],
    install: (app) => {
      const sca = app.sandbox.sca;
      const qrToken = sca.qrToken.bind(sca);
      sca.qrToken = (auth) => qrToken(auth, auth.startedAt);
    },
  },
  {
    id: 'authorisations.qr-image-not-png',
    description: 'the animated QR image is a GIF labelled image/png',
    // A GIF is no PNG, so no QR code is read from it either.
    breaks: ['authorisations.qr.image', 'authorisations.qr.image-decodes'],
    install: (app) =>
      rewriteJson(app, { route: ONE }, (b: Body) => {
        if (b.challengeData?.image) b.challengeData.image = PNG_LOOKALIKE;
      }),
  },
  {
    id: 'authorisations.qr-image-method-missing',
    description: 'scaMethods offer mbid_animated_qr_token without mbid_animated_qr_image',
    breaks: ['authorisations.qr.both-ids'],
    install: (app) =>
      rewriteJson(app, { method: 'POST', route: COLLECTION }, (b: Body) => {
        b.scaMethods = (b.scaMethods ?? []).filter((m: Body) => m.authenticationMethodId !== 'mbid_animated_qr_image');
      }),
  },

  {
    id: 'authorisations.unknown-method-accepted-on-cancellation',
    description:
      'Update cancellation PSU data takes an authenticationMethodId not among scaMethods as mbid_same_device (consent, payment and basket authorisations refuse it)',
    breaks: ['authorisations.start.unknown-method', 'authorisations.start.unknown-method-code'],
    install: (app) =>
      beforeHandler(app, { method: 'PUT', route: CANCELLATION_ONE }, (req) => {
        const body = req.body as Body | undefined;
        const id = body?.authenticationMethodId;
        if (typeof id === 'string' && !SCA_METHODS.some((m) => m.authenticationMethodId === id))
          body!.authenticationMethodId = 'mbid_same_device';
      }),
  },
  {
    id: 'authorisations.authorisation-other-tpp',
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
    id: 'authorisations.authorisation-on-unknown-consent',
    description: 'create authorisation on an unknown consent answers 201 with an authorisation',
    breaks: ['authorisations.create.unknown-resource', 'authorisations.unknown-resource.code'],
    install: (app) =>
      app.addHook('preValidation', async (req, reply) => {
        if (req.method !== 'POST' || req.routeOptions.url !== `${CONSENT}/:consentId/authorisations`) return;
        if (!app.sandbox.consents.get(params(req).consentId ?? '')) return fakeAuthorisation(req, reply);
      }),
  },
  {
    id: 'authorisations.authorisations-list-unknown-consent',
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
    id: 'authorisations.authorise-final-consent',
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
    id: 'authorisations.not-preferred-qr-image-redirects',
    description:
      'with TPP-Redirect-Preferred false, a consent authorisation started with mbid_animated_qr_image (one decoupled method only) answers aspsp-sca-approach REDIRECT',
    breaks: ['authorisations.start.decoupled', 'authorisations.redirect-preferred.false-consents'],
    install: (app) =>
      rewriteReply(app, { method: 'PUT', route: ONE }, (req, reply) => {
        if (notPreferred(req) && methodOf(req) === 'mbid_animated_qr_image')
          reply.header('ASPSP-SCA-Approach', 'REDIRECT');
      }),
  },
  {
    id: 'authorisations.not-preferred-payment-mbid-redirects',
    description:
      'with TPP-Redirect-Preferred false, a payment authorisation started with mbid answers REDIRECT and a scaOAuth link',
    breaks: ['authorisations.redirect-preferred.false-payments'],
    install: (app) => {
      rewriteReply(app, { method: 'PUT', route: PAYMENT_AUTH }, (req, reply) => {
        if (notPreferred(req) && methodOf(req) === 'mbid') reply.header('ASPSP-SCA-Approach', 'REDIRECT');
      });
      rewriteJson(app, { method: 'PUT', route: PAYMENT_AUTH }, (b: Body, req) => {
        const auth = app.sandbox.sca.get((req.params as { authorisationId?: string }).authorisationId ?? '');
        if (!notPreferred(req) || methodOf(req) !== 'mbid' || !auth || TERMINAL.has(auth.status) || !b._links) return;
        b._links.scaOAuth = { href: `${req.protocol}://${req.headers.host}/connect/authorize?response_type=code` };
      });
    },
  },
];

export default faults;
