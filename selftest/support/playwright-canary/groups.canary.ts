import { appendFileSync } from 'node:fs';
import { test } from '@playwright/test';
import { oneGroupPerWorkerAndFile } from '../../../harness/playwright-internals/one-group-per-worker.js';

// The self-proof's grouping hook, counted: each run of it is one group of this file's tests.
test.beforeAll(() => {
  oneGroupPerWorkerAndFile();
  appendFileSync(`${process.env.CANARY_DIR}/groups.txt`, 'group\n');
});

for (let i = 1; i <= 8; i++) test(`grouped ${i}`, () => {});
