import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { loadProfile, type Profile } from '../../harness/config/profile.js';
import {
  COMBINATIONS,
  firstCancellationAuthorised,
  firstClaimed,
  NO_FX_QUOTE,
  unclaimed,
} from '../../harness/areas/payments.js';
import { claimedOperations, paymentCombination } from '../../harness/operations.js';
import { OPERATIONS } from '../../harness/operations/table.js';

// A combination is claimed by the target, not by the profile alone: without an FX quote
// (FX_QUOTE_ID) no check may pick international-tp, whatever the profile lists.

/** The reference profile claiming international-tp alone, so that a pick that ignores the quote would take it. */
function onlyInternationalTp(): Profile {
  const p = structuredClone(loadProfile('reference'));
  p.payments.products = ['international-tp'];
  p.payments.cancellationAuthorisation = ['international-tp'];
  return p;
}

test('without FX_QUOTE_ID no combination of international-tp is claimed, by any way a check picks one', () => {
  const profile = onlyInternationalTp();
  const noQuote = { profile };
  for (const c of COMBINATIONS.filter((x) => x.product === 'international-tp'))
    expect(unclaimed(noQuote, c), `${c.service}/${c.product}`).toBe(NO_FX_QUOTE);
  expect(firstClaimed(noQuote)).toBeUndefined();
  expect(firstCancellationAuthorised(noQuote)).toBeUndefined();
  for (const o of OPERATIONS.filter((x) => x.group === 'payments'))
    expect(paymentCombination(noQuote, o)).toBeUndefined();
  expect(claimedOperations(noQuote, 'payments').claimed).toEqual([]);
});

test('with FX_QUOTE_ID international-tp is claimed where the profile lists it', () => {
  const quoted = { profile: onlyInternationalTp(), fxQuoteId: 'quote-0001' };
  expect(firstClaimed(quoted)).toEqual({ service: 'payments', product: 'international-tp' });
  expect(firstCancellationAuthorised(quoted)?.product).toBe('international-tp');
  expect(claimedOperations(quoted, 'payments').claimed.length).toBeGreaterThan(0);
});
