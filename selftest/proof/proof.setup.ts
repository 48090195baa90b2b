import { test } from '../support/test.js';
import { proofResult } from './run.js';

test('the self-proof run: the suite against the sandbox with each fault and each variant on', async () => {
  test.setTimeout(2_700_000);
  await proofResult();
});
