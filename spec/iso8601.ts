// ISO 8601 calendar dates (YYYY-MM-DD), the one day helper of the suite and the sandbox: a date
// field's day (validUntil, requestedExecutionDate, dateFrom…) is the UTC day of a moment. Beside the
// IBAN judge (iso13616.ts), where both may import it.

/** The ISO 8601 calendar date (YYYY-MM-DD, UTC) of a moment: now's by default. */
export const isoDay = (at: Date | number = Date.now()): string => new Date(at).toISOString().slice(0, 10);

/** Today's ISO date (UTC). */
export const today = (): string => isoDay();
