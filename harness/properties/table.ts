import { test } from '@playwright/test';
import { Blocked } from '../http/broken.js';

/*
 * A fixed table judged as a table: each row of a space small enough to name (six baskets, ten
 * dates that are no ISO date) sent once, in order, by the property's own check, not drawn by
 * fast-check. Every row is judged (a failing row does not hide the next); the test fails with
 * each failing row's message, and notes how many rows it judged.
 */

/** The annotation a table's test notes its rows under. */
export const TABLE_ANNOTATION = 'table';

/** Judges every row of `rows` with `check`; throws one Error naming each row that failed. */
export async function judgeRows<T>(
  name: string,
  rows: readonly T[],
  describe: (row: T) => string,
  check: (row: T) => Promise<void>,
): Promise<void> {
  if (!rows.length) throw new Error(`${name}: the table has no rows`);
  const failed: string[] = [];
  for (const row of rows) {
    try {
      await check(row);
    } catch (e) {
      // A blocked step blocks the test (its root cause named), as in any check.
      if (e instanceof Blocked) throw e;
      failed.push(`  - ${describe(row)}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    }
  }
  test.info().annotations.push({
    type: TABLE_ANNOTATION,
    description: `${name}: ${rows.length} row(s) judged${failed.length ? `, ${failed.length} FAILED` : ''}`,
  });
  if (failed.length)
    throw new Error(`${name}: ${failed.length} of ${rows.length} row(s) failed:\n${failed.join('\n')}`);
}
