import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
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
  const commit = loadSettings().own.commit || suiteCommit();
  const specSha256 = createHash('sha256')
    .update(readFileSync(fromRoot('spec', 'open-banking-gateway-api.md')))
    .digest('hex');
  return { name: pkg.name, version: pkg.version, commit, specSha256 };
}

/**
 * The suite's own commit: stamped into the package when it was packed (suite-commit.json,
 * scripts/stamp-commit.mjs), else the commit of the git checkout whose top folder is the suite's
 * (a clone of the suite), else "unknown". Never `git rev-parse` of a project the suite is
 * installed in (a bank's own git project holding node_modules/obg-conformance).
 */
export function suiteCommit(root = fromRoot()): string {
  const stamp = join(root, 'suite-commit.json');
  if (existsSync(stamp)) {
    try {
      const { commit } = JSON.parse(readFileSync(stamp, 'utf8')) as { commit?: unknown };
      if (typeof commit === 'string' && commit) return commit;
    } catch {
      // An unreadable stamp: as if there were none.
    }
  }
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    if (realpathSync(git('rev-parse', '--show-toplevel')) !== realpathSync(root)) return 'unknown';
    return git('rev-parse', 'HEAD');
  } catch {
    return 'unknown';
  }
}
