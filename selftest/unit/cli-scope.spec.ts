import { expect, test } from '@playwright/test';
import { narrows } from '../../scripts/run-scope.mjs';

test('a grep, a file filter, last-failed or a shard narrows the run; areas and workers do not', () => {
  expect(narrows([])).toBe(false);
  expect(narrows(['--project=directory', '--project', 'headers', '--workers', '4', '-j', '2', '--workers=3'])).toBe(
    false,
  );
  expect(narrows(['--grep', '@directory.aspsp.unknown'])).toBe(true);
  expect(narrows(['-g', 'bank'])).toBe(true);
  expect(narrows(['--grep=@x'])).toBe(true);
  expect(narrows(['tests/directory/banks.spec.ts'])).toBe(true);
  expect(narrows(['--project=directory', 'banks'])).toBe(true);
  expect(narrows(['--last-failed'])).toBe(true);
  expect(narrows(['--shard=1/2'])).toBe(true);
});
