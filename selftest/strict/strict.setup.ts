import { test } from '../support/test.js';
import { strictRun } from './strict-run.js';

test('the strict run (TLS, mutual TLS, signing required, through a proxy)', async () => {
  test.setTimeout(900_000);
  await strictRun();
});
