import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { chosenAreas, SCHEDULE_SEED, scheduled } from '../../harness/config/run-options.mjs';
import { narrows } from '../../scripts/run-scope.mjs';

test('a grep, a file filter, last-failed or a shard narrows the run; areas, workers and the order do not', () => {
  expect(narrows([])).toBe(false);
  expect(narrows(['--project=directory', '--project', 'headers', '--workers', '4', '-j', '2', '--workers=3'])).toBe(
    false,
  );
  expect(narrows(['--shuffle=7', '--shuffle', '--workers=2'])).toBe(false);
  expect(narrows(['--shuffle', '7', '--project=directory'])).toBe(false);
  expect(narrows(scheduled([]))).toBe(false);
  expect(narrows(['--grep', '@directory.aspsp.unknown'])).toBe(true);
  expect(narrows(['-g', 'bank'])).toBe(true);
  expect(narrows(['--grep=@x'])).toBe(true);
  expect(narrows(['tests/directory/banks.spec.ts'])).toBe(true);
  expect(narrows(['--project=directory', 'banks'])).toBe(true);
  expect(narrows(['--last-failed'])).toBe(true);
  expect(narrows(['--shard=1/2'])).toBe(true);
});

test("a run dispatches its tests in the suite's order unless the command line names its own or chooses several areas", () => {
  expect(scheduled([])).toEqual([`--shuffle=${SCHEDULE_SEED}`]);
  expect(scheduled(['--workers=2', 'tests/directory'])).toEqual([
    '--workers=2',
    'tests/directory',
    `--shuffle=${SCHEDULE_SEED}`,
  ]);
  // One chosen area is one project: shuffled as a whole run.
  expect(scheduled(['--project=directory'])).toEqual(['--project=directory', `--shuffle=${SCHEDULE_SEED}`]);
  // A project per chosen area: shuffled, the areas' tests would alternate and each switch start a worker.
  expect(scheduled(['--project=directory', '--project=headers'])).toEqual(['--project=directory', '--project=headers']);
  expect(scheduled(['--project', 'consents', '--project', 'payments'])).toEqual([
    '--project',
    'consents',
    '--project',
    'payments',
  ]);
  expect(scheduled(['--shuffle'])).toEqual(['--shuffle']);
  expect(scheduled(['--shuffle=7', '-g', 'x'])).toEqual(['--shuffle=7', '-g', 'x']);
  expect(scheduled(['--shuffle', '7'])).toEqual(['--shuffle', '7']);
});

test('the areas a command line chooses, in both spellings of --project', () => {
  expect(chosenAreas([])).toEqual([]);
  expect(chosenAreas(['--project=consents', '--workers', '2', '--project', 'payments', '-g', 'x'])).toEqual([
    'consents',
    'payments',
  ]);
});
