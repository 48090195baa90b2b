import { test } from '@playwright/test';

/**
 * Nothing passes on nothing. A check whose set turned out empty (no SCA method offered, no entry,
 * an answer with no body to read) ends here: skipped as "not judged", with the reason, never
 * passed. A return from a test body that judged nothing before it is refused by the lint
 * (selftest/unit/vacuous.spec.ts).
 */
export function notJudged(why: string): never {
  test.skip(true, `not judged: ${why}`);
  // test.skip(true, …) throws; this line is never reached.
  throw new Error(`not judged: ${why}`);
}

/**
 * A part of the running check left unjudged, where its other parts were judged (a case the profile
 * gives nothing for): noted on the test, so that the report says what its pass did not cover.
 */
export function partNotJudged(why: string): void {
  test.info().annotations.push({ type: 'not judged', description: why });
}
