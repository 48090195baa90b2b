import { expect } from '@playwright/test';
import { test } from '../support/test.js';
import type { Profile } from '../../harness/config/profile.js';
import { ApiResponse, type Exchange } from '../../harness/http/response.js';
import {
  consentDeclines,
  declinedBy,
  directDebitDeclines,
  MAY_DECLINE,
  MAY_DECLINE_ENTRIES,
  paymentDeclines,
} from '../../harness/areas/value-spaces.js';
import { declinedOnce } from '../../harness/properties/judge.js';
import { businessDate, isBusinessDay, isoDate } from '../../harness/values/dates.js';

// What every bank must accept and what a bank may decline (harness/areas/value-spaces.ts): the
// spaces by profile, the answer that declines, and the baseline a decline stands beside.

const exchange = (): Exchange => ({
  seq: 1,
  method: 'POST',
  url: 'https://bank.example/psd2/consent/v1/consents',
  requestHeaders: {},
  durationMs: 3,
  startedAt: new Date().toISOString(),
});
const answer = (status: number, body: unknown) =>
  new ApiResponse(status, { 'content-type': 'application/json' }, JSON.stringify(body), exchange());
const refusal = (status: number, code: string) =>
  answer(status, { tppMessages: [{ category: 'ERROR', code, path: 'x', text: 'declined' }] });

const profile = (o: { sessions?: string; horizon?: number; days?: string; amounts?: string; lead?: number } = {}) =>
  ({
    consents: { combinedSessions: o.sessions ?? 'may-decline' },
    payments: {
      executionHorizonDays: o.horizon ?? 30,
      nonBusinessDays: o.days ?? 'may-decline',
      amountForms: o.amounts ?? 'two-decimals',
    },
    directDebit: { leadTimeDays: o.lead ?? 14 },
  }) as unknown as Profile;

test('business days: no weekend, no TARGET2 closing day; the baselines fall on one', () => {
  expect(
    ['2026-11-28', '2026-11-29', '2026-12-25', '2026-12-26', '2027-01-01', '2026-04-03', '2026-04-06'].map(
      isBusinessDay,
    ),
  ).toEqual([false, false, false, false, false, false, false]);
  expect(['2026-11-30', '2026-04-07', '2026-05-04'].map(isBusinessDay)).toEqual([true, true, true]);
  for (let d = 0; d < 30; d++) expect(isBusinessDay(businessDate(d))).toBe(true);
});

test('every entry says what must be accepted, what may be declined, how, and the sentence it rests on', () => {
  for (const d of MAY_DECLINE_ENTRIES) {
    expect(d.mustAccept.length, d.id).toBeGreaterThan(0);
    expect(d.codes.length, d.id).toBeGreaterThan(0);
    expect(
      d.statuses.every((s) => s >= 400 && s < 500),
      d.id,
    ).toBe(true);
    expect(d.rests, d.id).toMatch(/specification: "/);
  }
});

test('the spaces narrow and widen with the profile', () => {
  const far = { requestedExecutionDate: businessDate(40), instructedAmount: { currency: 'EUR', amount: '12.50' } };
  expect(paymentDeclines(profile(), far)).toEqual([MAY_DECLINE.executionHorizon]);
  expect(paymentDeclines(profile({ horizon: 45 }), far)).toEqual([]);
  const whole = { requestedExecutionDate: businessDate(3), instructedAmount: { currency: 'EUR', amount: '12' } };
  expect(paymentDeclines(profile(), whole)).toEqual([MAY_DECLINE.amountForm]);
  expect(paymentDeclines(profile({ amounts: 'any-of-the-pattern' }), whole)).toEqual([]);
  let saturday = 1;
  while (new Date(`${isoDate(saturday)}T00:00:00Z`).getUTCDay() !== 6) saturday++;
  const weekend = { startDate: isoDate(saturday), payments: [{ instructedAmount: { amount: '1.00' } }] };
  expect(paymentDeclines(profile(), weekend)).toEqual([MAY_DECLINE.nonBusinessDay]);
  expect(paymentDeclines(profile({ days: 'accepted' }), weekend)).toEqual([]);
  const combined = { combinedServiceIndicator: true, access: { balances: [], transactions: [] } };
  expect(consentDeclines(profile(), combined)).toEqual([MAY_DECLINE.combinedSession]);
  expect(consentDeclines(profile({ sessions: 'offered' }), combined)).toEqual([]);
  expect(consentDeclines(profile(), { access: { balances: [{ iban: 'x' }], transactions: [] } })).toEqual([
    MAY_DECLINE.otherAccounts,
  ]);
  expect(directDebitDeclines(profile(), { requestedExecutionDate: isoDate(15) })).toEqual([
    MAY_DECLINE.collectionLeadTime,
  ]);
  expect(directDebitDeclines(profile(), { requestedExecutionDate: isoDate(14) })).toEqual([]);
});

test('a decline is a 4xx of the entry, carrying its code and no id', () => {
  const sessions = [MAY_DECLINE.combinedSession];
  expect(declinedBy(refusal(400, 'SESSIONS_NOT_SUPPORTED'), sessions, 'consentId')).toBe(MAY_DECLINE.combinedSession);
  expect(declinedBy(refusal(400, 'FORMAT_ERROR'), sessions, 'consentId')).toBeUndefined();
  expect(declinedBy(refusal(409, 'SESSIONS_NOT_SUPPORTED'), sessions, 'consentId')).toBeUndefined();
  expect(declinedBy(refusal(400, 'SESSIONS_NOT_SUPPORTED'), [], 'consentId')).toBeUndefined();
  expect(declinedBy(answer(201, { consentId: 'c1' }), sessions, 'consentId')).toBeUndefined();
  const withId = answer(400, { consentId: 'c1', tppMessages: [{ code: 'SESSIONS_NOT_SUPPORTED' }] });
  expect(declinedBy(withId, sessions, 'consentId')).toBeUndefined();
});

test('a decline stands only beside the baseline accepted: a refused baseline fails', async () => {
  const sessions = [MAY_DECLINE.combinedSession];
  const declined = declinedOnce();
  let baselines = 0;
  const accepted = async () => (baselines++, answer(201, { consentId: 'base' }));
  expect(await declined(refusal(400, 'SESSIONS_NOT_SUPPORTED'), sessions, 'consentId', 'case', accepted)).toBe(
    MAY_DECLINE.combinedSession,
  );
  expect(await declined(refusal(400, 'SESSIONS_NOT_SUPPORTED'), sessions, 'consentId', 'case', accepted)).toBe(
    MAY_DECLINE.combinedSession,
  );
  expect(baselines, 'the baseline is made once per property').toBe(1);
  expect(test.info().annotations.filter((a) => a.type === 'declined')).toHaveLength(1);
  expect(await declined(refusal(400, 'FORMAT_ERROR'), sessions, 'consentId', 'case', accepted)).toBeUndefined();
  const refused = declinedOnce();
  await expect(
    refused(refusal(400, 'SESSIONS_NOT_SUPPORTED'), sessions, 'consentId', 'case', async () =>
      refusal(400, 'SESSIONS_NOT_SUPPORTED'),
    ),
  ).rejects.toThrow(/baseline of the same operation refused too/);
});
