import { because, eachAccount, expect, req, test } from '../../harness/areas/accounts.js';

// "Field, header and parameter names are case-sensitive" on the account reads' parameters, not only
// on the directory's filter (tests/headers/common-rules.spec.ts): bookingStatus, required on the
// transaction list, is not given by BookingStatus or bookingstatus.

test(
  'a transaction list with bookingStatus under another casing is refused as one without it',
  req('headers.parameters.case-sensitive'),
  async ({ accounts, consent }) => {
    const account = eachAccount(consent)[0];
    const valid = await accounts.transactions(consent.consentId, account.resourceId, {
      bookingStatus: 'booked',
      dateFrom: '2000-01-01',
    });
    await expect(valid, because('the same list with bookingStatus (the positive control)')).toSucceed();
    for (const name of ['BookingStatus', 'bookingstatus']) {
      const res = await accounts.transactions(consent.consentId, account.resourceId, {
        [name]: 'booked',
        dateFrom: '2000-01-01',
      });
      await expect.soft(res, because(`${name}=booked is not bookingStatus, which the list requires`)).toBeRefused();
    }
  },
);
