import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import { mergePages, nextLink, type TransactionAnswer } from '../../harness/areas/accounts.js';

// A transaction list given in pages: where its next page is named, and the one list its pages make.

const page = (booked: string[], pending: string[] | undefined, next?: string): TransactionAnswer =>
  ({
    account: { iban: 'SE4550000000058398257466' },
    transactions: {
      booked: booked.map((transactionId) => ({ transactionId })),
      ...(pending ? { pending: pending.map((transactionId) => ({ transactionId })) } : {}),
      _links: { account: { href: '/v1/accounts/a1' }, ...(next ? { next: { href: next } } : {}) },
    },
  }) as TransactionAnswer;

test('the next page is named under transactions._links (Berlin Group) or at the top of the answer', () => {
  expect(nextLink(page(['t1'], [], '/v1/accounts/a1/transactions?page=2'))).toBe('/v1/accounts/a1/transactions?page=2');
  expect(nextLink({ transactions: { booked: [] }, _links: { next: { href: '?page=3' } } })).toBe('?page=3');
  expect(nextLink(page(['t1'], []))).toBeUndefined();
  expect(nextLink({ _links: { next: {} } })).toBeUndefined();
  expect(nextLink(undefined)).toBeUndefined();
});

test("pages merge into one list: every page's entries in order, each array present on any page kept, no next link", () => {
  const merged = mergePages([
    page(['t1', 't2'], undefined, '?page=2'),
    page(['t3'], ['p1'], '?page=3'),
    page([], ['p2']),
  ]);
  expect(merged.transactions?.booked?.map((t) => t.transactionId)).toEqual(['t1', 't2', 't3']);
  expect(merged.transactions?.pending?.map((t) => t.transactionId)).toEqual(['p1', 'p2']);
  expect(merged.transactions?._links).toEqual({ account: { href: '/v1/accounts/a1' } });
  expect(merged.account).toEqual({ iban: 'SE4550000000058398257466' });
  const one = page(['t1'], []);
  expect(mergePages([one])).toBe(one);
});
