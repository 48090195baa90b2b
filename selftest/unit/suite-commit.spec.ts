import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { runDir } from '../support/run-dir.js';
import { suiteCommit } from '../../harness/reporter/run-info.js';
import { fromRoot } from '../../harness/config/paths.js';

test("the suite's commit: its own checkout's, the one stamped at pack time, never a bank's project's", () => {
  const bank = runDir('suite-commit', 'bank');
  rmSync(bank, { recursive: true, force: true });
  const installed = join(bank, 'node_modules', 'obg-conformance');
  mkdirSync(installed, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: bank, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  git('init', '-q');
  writeFileSync(join(bank, 'README'), 'a bank');
  git('add', 'README');
  git('-c', 'user.name=bank', '-c', 'user.email=bank@example.invalid', 'commit', '-qm', 'the bank');
  const banksCommit = git('rev-parse', 'HEAD');
  // Installed inside the bank's git project, with no stamp: unknown, not the bank's commit.
  expect(suiteCommit(installed)).toBe('unknown');
  expect(suiteCommit(installed)).not.toBe(banksCommit);
  // Stamped when packed (scripts/stamp-commit.mjs): that commit.
  writeFileSync(join(installed, 'suite-commit.json'), JSON.stringify({ commit: 'c0ffee' }));
  expect(suiteCommit(installed)).toBe('c0ffee');
  // The suite's own checkout: its HEAD.
  expect(suiteCommit(fromRoot())).toMatch(/^([0-9a-f]{40}|unknown)$/);
  rmSync(bank, { recursive: true, force: true });
});
