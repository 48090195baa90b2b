import { spawnSync } from 'node:child_process';
import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { fromRoot } from '../../harness/config/paths.js';

// History people can read: a commit's subject (its first line) says what changed in at most 72
// characters; the measurements and the reasons go in the body. Commits before the anchor were
// written before the rule and are not judged.

/** The last commit not judged: every commit after it is. */
const ANCHOR = '1b8ec5f24d6ca1733b20edbd7b5b8aa52a29b68c';
const MAX_SUBJECT = 72;

const git = (args: string[]) => spawnSync('git', args, { cwd: fromRoot(), encoding: 'utf8' });

/** The subjects longer than `max` among `lines` (`<hash> <subject>` each), with their length. */
export function overlong(lines: string[], max = MAX_SUBJECT): string[] {
  return lines.flatMap((line) => {
    const [hash, ...words] = line.split(' ');
    const subject = words.join(' ');
    return [...subject].length > max ? [`${hash.slice(0, 10)} (${[...subject].length}): ${subject}`] : [];
  });
}

test('the rule counts characters of the subject alone', () => {
  const hash = 'a'.repeat(40);
  expect(overlong([`${hash} ${'x'.repeat(72)}`, `${hash} ${'é'.repeat(72)}`])).toEqual([]);
  expect(overlong([`${hash} ${'x'.repeat(73)}`])).toEqual([`aaaaaaaaaa (73): ${'x'.repeat(73)}`]);
});

test(`commit subjects after the anchor are at most ${MAX_SUBJECT} characters`, () => {
  const inside = git(['rev-parse', '--is-inside-work-tree']);
  test.skip(
    inside.status !== 0 ||
      inside.stdout.trim() !== 'true' ||
      git(['rev-parse', '--show-toplevel']).stdout.trim() !== fromRoot(),
    'not a git checkout of the suite (an installed package has no history to judge)',
  );
  test.skip(
    git(['cat-file', '-e', `${ANCHOR}^{commit}`]).status !== 0,
    `the anchor commit ${ANCHOR.slice(0, 10)} is not in this history (a shallow clone): nothing to judge from`,
  );
  const log = git(['log', '--format=%H %s', `${ANCHOR}..HEAD`]);
  expect(log.status, log.stderr).toBe(0);
  const lines = log.stdout.split('\n').filter(Boolean);
  expect(
    overlong(lines),
    `subjects over ${MAX_SUBJECT} characters (say what changed in the subject; figures and reasons in the body)`,
  ).toEqual([]);
});
