import type { HeaderGroup, Operation, PrepKit, Prepared } from '../types.js';

// What the rows of the table share: the groups of optional headers they accept, the headers they
// require, and the row maker.

export const AUTH_START: HeaderGroup[] = [
  'signature',
  'psu-forwarded',
  'psu-identification',
  'redirect',
  'notification',
];
export const AUTH_UPDATE: HeaderGroup[] = ['signature', 'psu-forwarded', 'psu-identification'];
export const READ: HeaderGroup[] = ['signature', 'psu-forwarded'];
export const BIC = ['X-BicFi'];

/** A row: an operation that is not a GET changes state unless it says otherwise. */
export const op = (o: Omit<Operation, 'changes'> & { changes?: boolean }): Operation => ({
  changes: o.method !== 'GET',
  ...o,
});

/** The preparation of an operation that needs no resource: its template filled from the profile's paths. */
export const noResource = async (k: PrepKit): Promise<Prepared> => ({ path: k.fill({}) });
