import { expect, test as base } from '@playwright/test';
import { keepWorker } from '../../../harness/playwright-internals/kept-worker.js';

// The harness's `_keepWorker` fixture (harness/test.ts), alone.
const test = base.extend<{ _keepWorker: void }>({
  _keepWorker: [
    async ({}, use, testInfo) => {
      await use();
      keepWorker(testInfo);
    },
    { auto: true },
  ],
});

// In order, in one worker while it is kept.
test.describe.configure({ mode: 'default' });

test('kept: fails', () => {
  expect(1, 'the canary fails on purpose').toBe(2);
});

test('kept: expected to fail, passes', () => {
  test.fail();
});

test('kept: after them', () => {});
