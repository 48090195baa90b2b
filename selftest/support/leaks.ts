import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under a folder, recursively. */
export const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => {
    const f = join(dir, n);
    return statSync(f).isDirectory() ? filesUnder(f) : [f];
  });

/**
 * Secrets found in clear under a run's reports: each secret value given (shown by a prefix only),
 * and, for request signing (Authentication 6), any PEM private key and any signature value.
 */
export function leaksUnder(dir: string, secrets: string[]): string[] {
  const leaks: string[] = [];
  for (const file of filesUnder(dir)) {
    const text = readFileSync(file, 'latin1');
    for (const s of secrets) if (text.includes(s)) leaks.push(`${file}: ${s.slice(0, 6)}…`);
    if (/PRIVATE KEY-----/.test(text)) leaks.push(`${file}: a PEM private key`);
    const sig = /signature="([A-Za-z0-9+/=]{40,})"/.exec(text);
    if (sig) leaks.push(`${file}: a signature value ${sig[1].slice(0, 6)}…`);
  }
  return leaks;
}
