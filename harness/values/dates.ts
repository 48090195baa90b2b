/** The ISO date (YYYY-MM-DD, UTC) `daysFromToday` days from today; negative for the past. */
export const isoDate = (daysFromToday: number) =>
  new Date(Date.now() + daysFromToday * 86_400_000).toISOString().slice(0, 10);
