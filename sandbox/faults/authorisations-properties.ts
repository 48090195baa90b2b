import type { FastifyRequest } from 'fastify';
import type { Fault } from './fault.js';
import { beforeHandler } from '../hooks.js';
import { SCA_METHODS } from '../sca/engine.js';

// Faults that sit between the hand-written checks' points and that only the generated phase
// (tests/authorisations/properties/) finds: the hand-written checks start an authorisation with one
// unknown id ("no-such-method") and with the offered methods on a consent and on a payment of the
// first claimed product; these bend ids near the offered ones, and one method on one resource kind.

/** The start (update PSU data) of any authorisation: a consent's, a payment's, a cancellation's, a basket's. */
const START = /\/(cancellation-)?authorisations\/:authorisationId$/;
const CANCELLATION_START = /\/:paymentId\/cancellation-authorisations\/:authorisationId$/;

const IDS = SCA_METHODS.map((m) => m.authenticationMethodId);

type Body = { authenticationMethodId?: unknown };
const bodyOf = (req: FastifyRequest) => req.body as Body | undefined;

const faults: Fault[] = [
  {
    id: 'authorisations.method-matched-by-prefix',
    caughtBy: 'properties',
    description:
      'an authenticationMethodId is matched against scaMethods by prefix: an offered id with anything appended (mbid_same_device2, mbidX) starts the SCA as that method; an id that starts with no offered one (no-such-method) is still refused',
    breaks: ['authorisations.start.unknown-method'],
    install: (app) =>
      beforeHandler(app, { method: 'PUT', route: START }, (req) => {
        const body = bodyOf(req);
        const id = body?.authenticationMethodId;
        if (typeof id !== 'string' || IDS.includes(id)) return;
        // The longest offered id the sent one starts with: the bank compares only that many characters.
        const match = IDS.filter((m) => id.startsWith(m)).sort((a, b) => b.length - a.length)[0];
        if (match) body!.authenticationMethodId = match;
      }),
  },
  {
    id: 'authorisations.cancellation-qr-image-server-error',
    caughtBy: 'properties',
    description:
      "starting a payment cancellation's authorisation with mbid_animated_qr_image (an offered method) is answered 500: the bank renders no QR image for a cancellation; the other methods, and that method on a consent's, a payment's or a basket's authorisation, start",
    breaks: ['authorisations.start.any-method'],
    install: (app) =>
      beforeHandler(app, { method: 'PUT', route: CANCELLATION_START }, (req) => {
        if (bodyOf(req)?.authenticationMethodId === 'mbid_animated_qr_image')
          throw new Error('challengeData.image: no QR image renderer for cancellations');
      }),
  },
];

export default faults;
