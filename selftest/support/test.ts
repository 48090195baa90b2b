import { test as base } from '@playwright/test';
import { BROWSERLESS } from '../../harness/browserless.js';

/**
 * Playwright's test for the self-tests, without its two automatic browser fixtures
 * (harness/browserless.ts), as the suite's own: a self-test opens no page through them, and they
 * cost every test some thirty option fixtures, each a step with captured stack traces (over 600
 * self-tests, the unit tests' worker alone spent over a second on them).
 */
export const test = base.extend(BROWSERLESS);
