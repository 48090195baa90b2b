// @ts-check
// The suite's commit, stamped into the package when it is packed (npm's prepack; postpack removes
// it again with --remove): an installed suite reads it from suite-commit.json (harness/reporter/
// run-info.ts), never from `git rev-parse` in its folder, which inside a bank's own git project
// would name the bank's commit.
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const file = resolve(root, 'suite-commit.json');

if (process.argv.includes('--remove')) rmSync(file, { force: true });
else {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    // Packed outside a git checkout: the installed suite says "unknown".
  }
  writeFileSync(file, `${JSON.stringify({ commit })}\n`);
}
