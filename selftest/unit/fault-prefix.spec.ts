import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { FAULTS } from '../../sandbox/faults/index.js';

// A fault is filed by the area of the rule it breaks: its id starts with the area of one of the
// requirements it names in `breaks` (consents.*, headers.*…), so that the faults of an area are
// found by its name.

test('a fault id starts with the area of a requirement it breaks', () => {
  const areaOf = (id: string) => id.split('.')[0];
  const astray = FAULTS.filter((f) => !f.breaks.some((b) => areaOf(b) === areaOf(f.id)));
  expect(
    astray.map((f) => `${f.id} breaks ${f.breaks.join(', ')}`),
    'fault ids whose prefix is no area of the requirements they break',
  ).toEqual([]);
});
