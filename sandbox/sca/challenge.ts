import { createHash } from 'node:crypto';
import { PNG } from 'pngjs';
import type { Authorisation, ScaEngine } from './engine.js';

/**
 * A real PNG (21×21 modules, 4 px each, black on white) drawn from the token's hash: the image an
 * app would scan. The pattern changes with the token, so a rotating token gives a rotating image.
 */
export function tokenPng(token: string): string {
  const modules = 21;
  const scale = 4;
  const size = modules * scale;
  const bits = createHash('sha512').update(token).digest();
  const png = new PNG({ width: size, height: size, colorType: 0, inputColorType: 0, bitDepth: 8 });
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const m = Math.floor(y / scale) * modules + Math.floor(x / scale);
      const on = (bits[(m >> 3) % bits.length] >> (m & 7)) & 1;
      png.data[y * size + x] = on ? 0 : 255;
    }
  }
  return `data:image/png;base64,${PNG.sync.write(png, { colorType: 0, inputColorType: 0, bitDepth: 8 }).toString('base64')}`;
}

/** challengeData while a decoupled SCA runs: the auto-start token, or the animated QR token or image. */
export function challengeData(sca: ScaEngine, auth: Authorisation): Record<string, unknown> | undefined {
  if (auth.approach !== 'DECOUPLED' || auth.status !== 'started') return undefined;
  switch (auth.methodId) {
    case 'mbid_animated_qr_token':
      return { data: [sca.qrToken(auth)] };
    case 'mbid_animated_qr_image':
      return { image: tokenPng(sca.qrToken(auth)!) };
    default:
      return { data: [auth.autoStartToken] };
  }
}
