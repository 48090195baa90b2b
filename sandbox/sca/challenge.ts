import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import type { Authorisation, ScaEngine } from './engine.js';

/**
 * The token drawn as a real QR code (the `qrcode` package's symbol, error correction M, a quiet
 * zone of 4 modules, 4 px a module, black on white) in a grey PNG: the image an app would scan.
 * A rotating token gives a rotating image. `scale` only changes the drawing, never the payload.
 */
export function tokenPng(token: string, scale = 4): string {
  const { modules } = QRCode.create(token, { errorCorrectionLevel: 'M' });
  const quiet = 4;
  const size = (modules.size + 2 * quiet) * scale;
  const png = new PNG({ width: size, height: size, colorType: 0, inputColorType: 0, bitDepth: 8 });
  png.data.fill(255);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const row = Math.floor(y / scale) - quiet;
      const col = Math.floor(x / scale) - quiet;
      const inside = row >= 0 && col >= 0 && row < modules.size && col < modules.size;
      if (inside && modules.get(row, col)) png.data[y * size + x] = 0;
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
