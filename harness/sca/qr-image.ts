import jsQR from 'jsqr';
import { PNG } from 'pngjs';

const PREFIX = 'data:image/png;base64,';

/** What reading an animated QR image gave: the QR code's payload, or why there is none. */
export type QrReading = { payload: string } | { payload?: undefined; error: string };

/**
 * Reads challengeData.image (a base64 PNG data URI) as an app's camera would: decodes the PNG
 * (`pngjs`) and finds and decodes the QR code in it (`jsqr`).
 */
export function readQrImage(image: unknown): QrReading {
  if (typeof image !== 'string' || !image.startsWith(PREFIX))
    return { error: `not a ${PREFIX} URI: ${JSON.stringify(String(image).slice(0, 40))}` };
  let png: PNG;
  try {
    png = PNG.sync.read(Buffer.from(image.slice(PREFIX.length), 'base64'));
  } catch (err) {
    return { error: `the PNG does not decode: ${(err as Error).message}` };
  }
  const found = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  if (!found) return { error: `no QR code found in the ${png.width}×${png.height} image` };
  if (!found.data) return { error: 'the QR code holds no payload' };
  return { payload: found.data };
}
