import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { PNG } from 'pngjs';
import { tokenPng } from '../sca/challenge.js';
import { type Fault } from './fault.js';
import { rewriteJson } from '../hooks.js';

// The generic authorisation routes, as registered on consents (the resource the suite drives them on).
const ONE = /^\/psd2\/consent\/v1\/consents\/:consentId\/authorisations\/:authorisationId$/;

type Body = { challengeData?: { image?: string } };

const authOf = (app: FastifyInstance, params: unknown) =>
  app.sandbox.sca.get((params as { authorisationId?: string }).authorisationId ?? '');

/** A PNG that looks like a QR code (21×21 black and white modules drawn from the token's hash) but is none. */
function noisePng(token: string): string {
  const modules = 21;
  const scale = 4;
  const size = modules * scale;
  const bits = createHash('sha512').update(token).digest();
  const png = new PNG({ width: size, height: size, colorType: 0, inputColorType: 0, bitDepth: 8 });
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const m = Math.floor(y / scale) * modules + Math.floor(x / scale);
      png.data[y * size + x] = (bits[(m >> 3) % bits.length] >> (m & 7)) & 1 ? 0 : 255;
    }
  }
  return `data:image/png;base64,${PNG.sync.write(png, { colorType: 0, inputColorType: 0, bitDepth: 8 }).toString('base64')}`;
}

/** The animated QR image broken: a PNG that holds no QR code, or a QR code whose payload never rotates. */
const faults: Fault[] = [
  {
    id: 'authorisations.qr-image-not-qr',
    description: 'the animated QR image is a real PNG that rotates with the token but holds no QR code (noise modules)',
    breaks: ['authorisations.qr.image-decodes'],
    install: (app) =>
      rewriteJson(app, { route: ONE }, (b: Body, req) => {
        const auth = authOf(app, req.params);
        if (b.challengeData?.image && auth) b.challengeData.image = noisePng(app.sandbox.sca.qrToken(auth) ?? '');
      }),
  },
  {
    id: 'authorisations.qr-image-payload-frozen',
    description:
      "the animated QR image's bytes change every second (it is drawn at another scale) but its QR code always holds the SCA's first token",
    breaks: ['authorisations.qr.image-decodes'],
    install: (app) =>
      rewriteJson(app, { route: ONE }, (b: Body, req) => {
        const auth = authOf(app, req.params);
        if (!b.challengeData?.image || !auth?.startedAt) return;
        const second = Math.floor((Date.now() - auth.startedAt) / 1000);
        b.challengeData.image = tokenPng(app.sandbox.sca.qrToken(auth, auth.startedAt) ?? '', 4 + (second % 2));
      }),
  },
];

export default faults;
