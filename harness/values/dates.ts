import { isoDay } from '../../spec/iso8601.js';

/** The ISO date (YYYY-MM-DD, UTC) `daysFromToday` days from today; negative for the past. */
export const isoDate = (daysFromToday: number) => isoDay(Date.now() + daysFromToday * 86_400_000);

/** Easter Sunday of a year (the anonymous Gregorian algorithm), as month (1-12) and day. */
function easter(year: number): [number, number] {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const h = (19 * a + b - Math.floor(b / 4) - Math.floor((b - Math.floor((8 * b + 13) / 25)) / 3) + 15) % 30;
  const l = (32 + 2 * (b % 4) + 2 * Math.floor(c / 4) - h - (c % 4)) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  return [month, ((h + l - 7 * m + 114) % 31) + 1];
}

/**
 * Whether an ISO date is a business day of SEPA payments: not a Saturday or Sunday, and not a
 * TARGET2 closing day (1 January, Good Friday, Easter Monday, 1 May, 25 and 26 December).
 */
export function isBusinessDay(date: string): boolean {
  const d = new Date(`${date}T00:00:00Z`);
  if (d.getUTCDay() === 0 || d.getUTCDay() === 6) return false;
  const md = date.slice(5);
  if (['01-01', '05-01', '12-25', '12-26'].includes(md)) return false;
  const [month, day] = easter(d.getUTCFullYear());
  const sunday = Date.UTC(d.getUTCFullYear(), month - 1, day);
  return d.getTime() !== sunday - 2 * 86_400_000 && d.getTime() !== sunday + 86_400_000;
}

/** The first business day (isBusinessDay) `daysFromToday` days from today or later. */
export function businessDate(daysFromToday: number): string {
  let days = daysFromToday;
  while (!isBusinessDay(isoDate(days))) days++;
  return isoDate(days);
}

/** Whole days from today (UTC) to an ISO date; negative for the past. */
export const daysFromToday = (date: string): number =>
  Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${isoDate(0)}T00:00:00Z`)) / 86_400_000);
