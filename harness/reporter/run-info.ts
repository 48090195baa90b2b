import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fromRoot } from '../config/paths.js';
import { loadSettings } from '../config/user-settings.mjs';

export interface SuiteInfo {
  name: string;
  version: string;
  commit: string;
  /** SHA-256 of the specification text the suite judges against (spec/open-banking-gateway-api.md). */
  specSha256: string;
}

export function suiteInfo(): SuiteInfo {
  const pkg = JSON.parse(readFileSync(fromRoot('package.json'), 'utf8')) as { name: string; version: string };
  let commit = loadSettings().own.commit;
  if (!commit) {
    try {
      commit = execFileSync('git', ['rev-parse', 'HEAD'], {
        cwd: fromRoot(),
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim();
    } catch {
      commit = 'unknown';
    }
  }
  const specSha256 = createHash('sha256')
    .update(readFileSync(fromRoot('spec', 'open-banking-gateway-api.md')))
    .digest('hex');
  return { name: pkg.name, version: pkg.version, commit, specSha256 };
}
