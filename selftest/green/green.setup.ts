import { test } from '../support/test.js';
import { greenRound } from './green-run.js';
import { ROUNDS, roundName } from './rounds.js';

test.describe.configure({ mode: 'default' });

// In order, one round after the other: rounds in parallel would share two cores and measure the machine, not the suite.
ROUNDS.forEach((_, i) => {
  const n = i + 1;
  test(`the green run, ${roundName(n)}`, async () => {
    test.setTimeout(900_000);
    await greenRound(n);
  });
});
