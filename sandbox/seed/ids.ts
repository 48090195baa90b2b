import { createHash } from 'node:crypto';

/** A stable uuid (version 5 layout) derived from a name, so every run sees the same ids. */
export function stableUuid(name: string): string {
  const h = createHash('sha1').update(`obg-sandbox:${name}`).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}
