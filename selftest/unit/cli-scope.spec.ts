import { expect, test } from '@playwright/test';
import { cliNarrowsTests } from '../../harness/reporter/conformance.js';

test('a grep, a file filter or last-failed narrows the run; projects, workers and reporters do not', () => {
  expect(cliNarrowsTests(['test'])).toBe(false);
  expect(
    cliNarrowsTests([
      'test',
      '--project=directory',
      '--project',
      'headers',
      '--workers',
      '4',
      '-c',
      'playwright.config.ts',
    ]),
  ).toBe(false);
  expect(cliNarrowsTests(['test', '--grep', '@directory.aspsp.unknown'])).toBe(true);
  expect(cliNarrowsTests(['test', '-g', 'bank'])).toBe(true);
  expect(cliNarrowsTests(['test', '--grep=@x'])).toBe(true);
  expect(cliNarrowsTests(['test', 'tests/directory/banks.spec.ts'])).toBe(true);
  expect(cliNarrowsTests(['test', '--last-failed'])).toBe(true);
});
